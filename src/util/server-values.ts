/**
 * What a value written into a server's configuration may hold: host names, URL paths and header
 * values reach nginx, Caddy, Netlify's `_headers`, the Worker, CloudFront and `catalogue serve`,
 * and each reads some characters as its own (`$name` is an nginx variable even in quotes, `{…}`
 * a Caddy placeholder, a line break a new Netlify rule; Node and workerd refuse controls and
 * non-Latin-1 bytes in a header). Neither nginx nor Caddy can escape all of them, so a value is
 * either made only of characters every server sends as written, or refused: by `validate` at its
 * line (content/schema.ts, site/policy.ts), and asserted again by the writers of the
 * configurations, where a value that got past validate is a bug. Pure (no Node module): the
 * Worker's bundle carries it.
 */

/** A host name as clients send it in `Host`: lowercase ASCII labels (an IDN in its punycode form), no port. */
export const HOST_PATTERN =
  /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/**
 * One segment of a base or media path: what every server matches literally (no percent-escape,
 * which servers compare decoded or not; no `;`, `$`, quote or brace; not `.` or `..`, and no
 * leading `_` or `.`, which the output keeps for itself: `_api/`, `_catalogue/`).
 */
export const PATH_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/** A base or media path: "" (the host's root) or `/segment/segment`, no empty segment, no trailing slash. */
const SERVED_PATH = /^(\/[A-Za-z0-9][A-Za-z0-9._~-]*)*$/;

/**
 * Characters no header value may hold: controls (a line break starts a new header, or a new
 * Netlify rule), non-ASCII (Node and workerd refuse what is past Latin-1, and the rest is sent
 * differently by each), `$` (an nginx variable, even in quotes), `{` `}` (Caddy placeholders),
 * `\` (kept by Caddy inside a quoted token, an escape to nginx). Quotes are safe: nginx's `\'` and
 * Caddy's `\"` give them back as written (a Content-Disposition has two).
 */
// eslint-disable-next-line no-control-regex -- controls are what it finds
const UNSENDABLE = /[\u0000-\u001f\u007f-\uffff$\\{}]/;

/** Why a header value cannot be sent the same by every server, or null when it can. */
function headerValueProblem(value: string): string | null {
  const found = UNSENDABLE.exec(value);
  if (found === null) return null;
  const char = found[0];
  const code = char.charCodeAt(0);
  if (code < 0x20 || code === 0x7f)
    return `a control character (U+${code.toString(16).toUpperCase().padStart(4, "0")}) is not sent the same by every server`;
  if (code > 0x7f) return `a non-ASCII character (${char}) is not sent the same by every server`;
  return `${char} would be read by a server (nginx's $ variables, Caddy's {placeholders}, escapes)`;
}

/**
 * The writers of server configurations assert their values with this: validate refuses whatever
 * fails it, so a failure is a bug (or a `_catalogue/build.json` edited by hand). Returns the value.
 */
export function assertServable(
  kind: "host" | "path" | "header",
  value: string,
  what: string = kind,
): string {
  const problem =
    kind === "host"
      ? HOST_PATTERN.test(value)
        ? null
        : "not a lowercase host name"
      : kind === "path"
        ? SERVED_PATH.test(value)
          ? null
          : "not a path of plain segments"
        : headerValueProblem(value);
  if (problem !== null)
    throw new Error(
      `bug: ${what} ${JSON.stringify(value)} passed validate, yet cannot be written into a server's configuration: ${problem}`,
    );
  return value;
}
