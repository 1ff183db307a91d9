/**
 * The characters XML 1.0 forbids and a CSV cell may still hold: C0 controls but tab, line feed
 * and carriage return; U+FFFE and U+FFFF; surrogates that are not half of a pair. One of them
 * makes a whole feed, sitemap or spreadsheet part unreadable, and HTML counts them as parse
 * errors, so the writers of XML and HTML drop them (JSON keeps the text as written: it can
 * escape every one of them).
 */
export const XML_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
