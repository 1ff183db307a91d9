import type { Problem } from "../errors.ts";

/**
 * The Content-Security-Policy of a domain's pages, as data. Everything the site loads is its own
 * (its stylesheets, search.js, Pagefind's bundle and WebAssembly, dev's reload script and event
 * stream), except the covers when `media_url` is on another host, and what the library allows in
 * `site/content-security.json` (an analytics script, a video player's iframe). No inline script,
 * no `eval`: `'wasm-unsafe-eval'` lets Pagefind compile its WebAssembly and nothing else; JSON-LD is
 * data, which a policy does not govern. Nothing is allowed by default, so a new kind of resource
 * must be named here. serve/headers.ts sends it; the library's files are checked against it
 * (custom/blocked.ts). Pure (no Node module): the Worker's bundle carries it.
 */
const BASE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["default-src", ["'none'"]],
  ["script-src", ["'self'", "'wasm-unsafe-eval'"]],
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
export const EXTENSIBLE: Readonly<Record<string, string>> = {
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
    const added = extra[name] ?? [];
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
  const merged: Record<string, string[]> = {};
  for (const sources of all) {
    for (const [name, list] of Object.entries(sources ?? {})) {
      const into = (merged[name] ??= []);
      for (const source of list) if (!into.includes(source)) into.push(source);
    }
  }
  return Object.fromEntries(
    Object.keys(EXTENSIBLE)
      .filter((name) => merged[name] !== undefined)
      .map((name) => [name, merged[name]!]),
  );
}

/** The setting's file, at the root of the site folder. */
export const POLICY_FILE = "content-security.json";

/** `https://host`, `https://*.host:port/path`, `wss://host`: a host source with a scheme. */
const HOST_SOURCE =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/i;
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
  return `not a source: write an origin like "https://stats.example.org" (a "*." before the host for its subdomains, a path after it), "https:", or a hash like 'sha256-…'`;
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
  const sources: Record<string, string[]> = {};
  for (const [directive, value] of Object.entries(parsed)) {
    const line = lineAt(text, text.indexOf(JSON.stringify(directive)));
    if (!(directive in EXTENSIBLE)) {
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
    for (const source of value) {
      const why = refusal(directive, source.trim());
      if (why === null) kept.push(source.trim());
      else
        problems.push({
          file,
          line: lineAt(text, text.indexOf(JSON.stringify(source))),
          message: `"${directive}": ${JSON.stringify(source)}: ${why}`,
        });
    }
    if (kept.length > 0) sources[directive] = kept;
  }
  return mergeSources([sources]);
}

const lineAt = (text: string, at: number) => (at < 0 ? 1 : text.slice(0, at).split("\n").length);

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
    ...(extra[directive] ?? []),
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
