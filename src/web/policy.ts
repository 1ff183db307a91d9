import type { Problem } from "../errors.ts";

/**
 * The Content-Security-Policy of a domain's pages, as data. Everything the site loads is its own
 * (its stylesheets, its scripts and the browse index's classic scripts, dev's reload script and
 * event stream), except the covers when `media_url` is on another host, and what the library
 * allows in `site/content-security.json` (an analytics script, a video player's iframe). No inline
 * script, no `eval`, no WebAssembly; JSON-LD is data, which a policy does not govern. Nothing is allowed by default, so a new kind of resource
 * must be named here. serve/headers.ts sends it; the library's files are checked against it
 * (custom/blocked.ts). Pure (no Node module): the Worker's bundle carries it.
 */
const BASE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["default-src", ["'none'"]],
  ["script-src", ["'self'"]],
  ["style-src", ["'self'"]],
  // data: for the offline archive's root page, whose icon is `data:,` (no request from file://); the site's pages link a real favicon.
  ["img-src", ["'self'", "data:"]],
  ["font-src", ["'self'"]],
  ["connect-src", ["'self'"]],
  ["manifest-src", ["'self'"]],
  ["object-src", ["'none'"]],
  ["base-uri", ["'self'"]],
  ["form-action", ["'self'"]],
  ["frame-ancestors", ["'self'"]],
];

/** Sources a library adds, by directive (the setting's contents, as build.json carries them). */
export type PolicySources = Readonly<Record<string, readonly string[]>>;

/**
 * The directives a library may extend, each with what it governs (for the docs and the
 * messages). The others stay as they are: `default-src`, `object-src` (plugins), `base-uri`,
 * `frame-ancestors` (who may frame the catalogue), `manifest-src`.
 */
const EXTENSIBLE: Readonly<Record<string, string>> = {
  "script-src": "scripts (<script src>)",
  "style-src": "stylesheets (<link rel=stylesheet>, @import)",
  "img-src": "images (<img>, CSS url())",
  "font-src": "web fonts (@font-face)",
  "connect-src": "what scripts fetch (fetch, XMLHttpRequest, beacons, WebSocket)",
  "media-src": "video and audio (<video>, <audio>, <source>, <track>)",
  "frame-src": "embedded pages (<iframe>)",
  "worker-src": "web workers' scripts",
  "form-action": "where forms send (<form action>)",
};

/** The policy with covers also taken from `imagesFrom` and the library's sources added. */
export function pagePolicy(imagesFrom: readonly string[], extra: PolicySources = {}): string {
  const directives = new Map<string, string[]>(BASE.map(([name, sources]) => [name, [...sources]]));
  directives.get("img-src")!.push(...imagesFrom);
  for (const name of Object.keys(EXTENSIBLE)) {
    const added = Object.hasOwn(extra, name) ? extra[name]! : [];
    if (added.length === 0) continue;
    // A directive the base leaves to default-src 'none' starts from nothing, not from 'none'.
    const sources = directives.get(name) ?? [];
    for (const source of added) if (!sources.includes(source)) sources.push(source);
    if (!directives.has(name)) directives.set(name, sources);
  }
  return [...directives].map(([name, sources]) => [name, ...sources].join(" ")).join("; ");
}

/** The sources of several domains' settings together (a CloudFront policy serves every domain). */
export function mergeSources(all: readonly (PolicySources | undefined)[]): PolicySources {
  // A Map: a directive's name is data, never a property lookup (`constructor`, `__proto__`).
  const merged = new Map<string, string[]>();
  for (const sources of all) {
    for (const [name, list] of Object.entries(sources ?? {})) {
      let into = merged.get(name);
      if (into === undefined) merged.set(name, (into = []));
      for (const source of list) if (!into.includes(source)) into.push(source);
    }
  }
  return Object.fromEntries(
    Object.keys(EXTENSIBLE)
      .filter((name) => merged.has(name))
      .map((name) => [name, merged.get(name)!]),
  );
}

/** The setting's file, at the root of the site folder. */
export const POLICY_FILE = "content-security.json";

/**
 * A host source with a scheme, in the grammar of CSP (host-source, with RFC 3986's path):
 * `https://host`, `https://*.host:port/path`, `wss://host`. The host in ASCII (an IDN in its
 * punycode form); the path of unreserved characters, percent-escapes and the sub-delimiters but
 * `;` and `,` (CSP's own separators) and `$` (nginx would read a variable in the header). So
 * every source that passes is sent as written by every server (util/server-values.ts).
 */
const LABEL = "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?";
const PATH_CHAR = "(?:[A-Za-z0-9._~!&'()*+=:@-]|%[0-9A-Fa-f]{2})";
const HOST_SOURCE = new RegExp(
  `^(?:https?|wss?)://(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*(?::(?:\\d{1,5}|\\*))?(?:/${PATH_CHAR}*)*$`,
  "i",
);
const SCHEME_PREFIX = /^(?:https?|wss?):\/\//i;
/** A scheme source a library may name on purpose (`https:`: anything over TLS). */
const SCHEME_SOURCE = /^(https|wss|data|blob):$/i;
/** The hash of one inline script or style: `'sha256-…'`. */
export const HASH_SOURCE = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;

/** Why a source is refused, or null when it is one a library may add to `directive`. */
function refusal(directive: string, source: string): string | null {
  if (
    source === "'unsafe-inline'" ||
    source === "'unsafe-eval'" ||
    source === "'unsafe-hashes'" ||
    source === "'strict-dynamic'"
  ) {
    return `${source} would let any injected text run: put the script or style in a file under site/assets/ and link it, or name its hash ('sha256-…')`;
  }
  if (source === "*")
    return `"*" allows every host: name the hosts, or "https:" for any host over TLS`;
  if (source === "'self'" || source === "'none'")
    return `${source} is not needed: the site's own files are always allowed, and a library only adds sources`;
  if (HASH_SOURCE.test(source))
    return directive === "script-src" || directive === "style-src"
      ? null
      : `a hash source means something only in script-src and style-src`;
  if (SCHEME_SOURCE.test(source))
    return source.toLowerCase() === "data:" &&
      directive !== "img-src" &&
      directive !== "font-src" &&
      directive !== "media-src"
      ? `data: in ${directive} would let any injected text run or load`
      : null;
  if (HOST_SOURCE.test(source)) return null;
  const why = SCHEME_PREFIX.test(source) ? hostSourceProblem(source) : null;
  if (why !== null) return why;
  return `not a source: write an origin like "https://stats.example.org" (a "*." before the host for its subdomains, a path after it), "https:", or a hash like 'sha256-…'`;
}

/** Why a character of a path cannot be in a source, beyond the grammar. */
const PATH_REASONS: Readonly<Record<string, string>> = {
  $: "nginx would read a variable in the header",
  "{": "Caddy would read a placeholder in the header",
  "}": "Caddy would read a placeholder in the header",
  ";": "it separates a policy's directives",
  ",": "it separates policies",
};

/** What is wrong in a source that starts like a host source, or null when nothing precise is. */
function hostSourceProblem(source: string): string | null {
  const rest = source.replace(SCHEME_PREFIX, "");
  const slash = rest.indexOf("/");
  const host = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? "" : rest.slice(slash);
  if (/[^\x20-\x7e]/.test(host)) {
    let ascii = "";
    try {
      ascii = new URL(`https://${host}`).hostname;
    } catch {
      // no punycode form to suggest
    }
    return `the host is not ASCII: write it in its punycode form${ascii === "" ? "" : ` (${ascii})`}`;
  }
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return `"%" in a path starts an escape of two hex digits`;
  const at = new RegExp(`^(?:/|${PATH_CHAR})*`).exec(path)![0].length;
  if (at === path.length) return null;
  const code = path.codePointAt(at)!;
  const char = String.fromCodePoint(code);
  const named =
    code < 0x20 || code === 0x7f
      ? `the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`
      : JSON.stringify(char);
  return `${named} cannot be in a source's path (${PATH_REASONS[char] ?? "percent-escape it"}): letters, digits, %XX escapes and - . _ ~ ! & ' ( ) * + = : @ only`;
}

/**
 * Reads `site/content-security.json`: an object of directives, each a list of sources, like
 * `{ "frame-src": ["https://www.youtube-nocookie.com"] }`. Every problem at once, with its line.
 */
export function parsePolicySetting(file: string, text: string, problems: Problem[]): PolicySources {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const at = /position (\d+)/.exec((error as Error).message);
    problems.push({
      file,
      ...(at ? { line: lineAt(text, Number(at[1])) } : {}),
      message: `not valid JSON: ${(error as Error).message}`,
    });
    return {};
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    problems.push({
      file,
      line: 1,
      message:
        'expected an object of directives, like { "frame-src": ["https://www.youtube-nocookie.com"] }',
    });
    return {};
  }
  // A Map: a directive's name is data, never a property lookup (`constructor`, `__proto__`).
  const sources = new Map<string, string[]>();
  const lines = linesOf(text);
  for (const [directive, value] of Object.entries(parsed)) {
    const line = lines.get(directive)?.line ?? 1;
    if (!Object.hasOwn(EXTENSIBLE, directive)) {
      const fixed = BASE.some(([name]) => name === directive);
      problems.push({
        file,
        line,
        message: fixed
          ? `"${directive}" stays as the site needs it; the directives a library may extend are ${Object.keys(EXTENSIBLE).join(", ")}`
          : `unknown directive "${directive}": the directives a library may extend are ${Object.keys(EXTENSIBLE).join(", ")}`,
      });
      continue;
    }
    if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
      problems.push({
        file,
        line,
        message: `"${directive}": expected a list of sources, like ["https://stats.example.org"]`,
      });
      continue;
    }
    const kept: string[] = [];
    value.forEach((source, i) => {
      const why = refusal(directive, source.trim());
      if (why === null) kept.push(source.trim());
      else
        problems.push({
          file,
          line: lines.get(directive)?.sources[i] ?? line,
          message: `"${directive}": ${shown(source)}: ${why}`,
        });
    });
    if (kept.length > 0) sources.set(directive, kept);
  }
  return mergeSources([Object.fromEntries(sources)]);
}

/** A source in a message: quoted, every control character escaped (JSON leaves DEL and C1 as they are). */
const shown = (source: string) =>
  JSON.stringify(source).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

const lineAt = (text: string, at: number) => (at < 0 ? 1 : text.slice(0, at).split("\n").length);

/**
 * The line of each directive of a setting that parses, and of each of its sources, read off the
 * text's tokens (a source written with escapes is found as well as one written plainly). For a
 * directive written twice, its last occurrence: the one JSON.parse keeps.
 */
function linesOf(text: string): Map<string, { line: number; sources: number[] }> {
  const found = new Map<string, { line: number; sources: number[] }>();
  let current: { line: number; sources: number[] } | null = null;
  let depth = 0;
  let line = 1;
  const colon = /\s*:/y;
  const isKey = (end: number) => ((colon.lastIndex = end), colon.test(text));
  for (const match of text.matchAll(/"(?:[^"\\\n]|\\.)*"|[{}[\]\n]/g)) {
    const token = match[0];
    if (token === "\n") line++;
    else if (token === "{" || token === "[") depth++;
    else if (token === "}" || token === "]") depth--;
    else if (depth === 1 && isKey(match.index + token.length)) {
      current = { line, sources: [] };
      found.set(JSON.parse(token) as string, current);
    } else if (depth === 2) current?.sources.push(line);
  }
  return found;
}

/**
 * Whether the policy lets a page at `page` (its absolute URL) load `url` under `directive`:
 * the page's own origin ('self'), the library's sources, and for images `data:` and the covers'
 * origins. What a browser would decide, for the URLs a library writes (host sources with an
 * optional "*." and path prefix, scheme sources).
 */
export function allows(
  directive: string,
  url: URL,
  page: URL,
  imagesFrom: readonly string[],
  extra: PolicySources,
): boolean {
  const base = BASE.find(([name]) => name === directive)?.[1] ?? [];
  const sources = [
    ...base,
    ...(directive === "img-src" ? imagesFrom : []),
    ...(Object.hasOwn(extra, directive) ? extra[directive]! : []),
  ];
  return sources.some((source) => matches(source, url, page));
}

function matches(source: string, url: URL, page: URL): boolean {
  if (source === "'self'")
    return (
      url.origin === page.origin ||
      (page.protocol === "http:" && url.protocol === "https:" && url.host === page.host)
    );
  if (source.endsWith(":") && !source.includes("/"))
    return (
      url.protocol === source.toLowerCase() ||
      (source.toLowerCase() === "http:" && url.protocol === "https:")
    );
  const m = /^([a-z]+):\/\/(\*\.)?([^/:]+)(?::(\d+|\*))?(\/.*)?$/i.exec(source);
  if (m === null) return false;
  const [, scheme, wildcard, host, port, pathPrefix] = m;
  const schemeOk =
    url.protocol === `${scheme!.toLowerCase()}:` ||
    (scheme!.toLowerCase() === "http" && url.protocol === "https:") ||
    (scheme!.toLowerCase() === "ws" && url.protocol === "wss:");
  const hostOk = wildcard
    ? url.hostname.toLowerCase().endsWith(`.${host!.toLowerCase()}`)
    : url.hostname.toLowerCase() === host!.toLowerCase();
  const defaultPort = url.protocol === "https:" || url.protocol === "wss:" ? "443" : "80";
  const portOk =
    port === "*" ||
    (port ?? defaultPort) === (url.port || defaultPort) ||
    (port === undefined &&
      scheme!.toLowerCase() === "http" &&
      url.protocol === "https:" &&
      (url.port || "443") === "443");
  const pathOk =
    pathPrefix === undefined ||
    (pathPrefix.endsWith("/") ? url.pathname.startsWith(pathPrefix) : url.pathname === pathPrefix);
  return schemeOk && hostOk && portOk && pathOk;
}
