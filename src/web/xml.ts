import { escape as htmlEscape } from "./html.ts";

/**
 * Text for XML: escaped, and without the characters XML 1.0 forbids (C0 controls but tab, line
 * feed and carriage return; lone surrogates; U+FFFE and U+FFFF), which a CSV cell may hold and
 * which would make the whole feed unreadable.
 */
export const escape = (text: string) => htmlEscape(text.replace(INVALID_XML, ""));
const INVALID_XML =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
