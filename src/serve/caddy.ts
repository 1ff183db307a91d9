import type { BuildInfo } from "../output/build-info.ts";
import type { Listen } from "./listen.ts";
import { MIME_TYPES } from "./mime.ts";
import { assertServable } from "../util/server-values.ts";
import {
  API_HEADERS,
  CACHE,
  detailFile,
  errorBody,
  escapeRegex,
  HIDDEN_PREFIXES,
  hostTable,
  ID_PATTERN,
  JSON_TYPE,
  listFile,
  MAX_TARGET,
  methodNotAllowedBody,
  crossOriginHeaders,
  OPTIONS_HEADERS,
  paramPattern,
  QUERY_RULES,
  READ_METHODS,
  REFUSED_HEADERS,
  slashRedirects,
  type DomainRoutes,
  type HostRoutes,
} from "./routes.ts";

/**
 * `catalogue config caddy`: the routing table of routes.ts as a Caddyfile for
 * `caddy run --adapter caddyfile`. Everything runs inside one `route` block, in the order
 * written, which is the order of resolve.ts. Query values reach file paths only through `map`s
 * whose results are whitelisted folder names or digits. Path matching uses `path_regexp`
 * (case-sensitive, as in nginx and Node) rather than `path` (case-insensitive in Caddy).
 */

/** A Caddyfile token in backquotes (no escapes inside; the bodies hold no backquote). */
const raw = (value: string) => `\`${value}\``;
/**
 * A Caddyfile token in double quotes, `\"` for a quote. Inside it Caddy keeps a backslash as it is
 * and expands `{…}` placeholders (in header values too): the values are made of characters every
 * server sends as written (util/server-values.ts), which validate checked.
 */
const quoted = (value: string) =>
  `"${assertServable("header", value, "a Caddyfile value").replace(/"/g, '\\"')}"`;
const exact = (path: string) => `^${escapeRegex(path)}$`;

const placeholder = (name: string) => `{catalogue_${name}}`;

function queryMaps(): string[] {
  const lines: string[] = [];
  for (const rule of QUERY_RULES) {
    const arg = placeholder(`${rule.name}_arg`);
    // `x` marks presence: "" is absent, "x" a bare name, "x=v" a value. The pattern is anchored,
    // so Caddy's map (which concatenates every match) sees the first occurrence only.
    lines.push(
      `\tmap {query} ${arg} {`,
      `\t\t~${paramPattern(rule.name)} "x\${1}"`,
      `\t\tdefault ""`,
      `\t}`,
    );
    lines.push(`\tmap ${arg} ${placeholder(rule.name)} {`, `\t\t"" ${rule.absent}`);
    for (const [value, folder] of Object.entries(rule.values))
      lines.push(`\t\t${quoted(`x=${value}`)} ${folder}`);
    if (rule.pattern !== undefined) lines.push(`\t\t~^x=(${rule.pattern.slice(1, -1)})$ "\${1}"`);
    lines.push(`\t\tdefault ${"error" in rule.otherwise ? "!" : rule.otherwise.folder}`, `\t}`);
  }
  return lines;
}

const headerBlock = (matcher: string, entries: Record<string, string>, defer = false) => [
  `\t\theader ${matcher} {`,
  ...Object.entries(entries).map(([k, v]) => `\t\t\t${k} ${quoted(v)}`),
  ...(defer ? ["\t\t\tdefer"] : []),
  `\t\t}`,
];

/** A named matcher: `@name { lines }`. */
const matcher = (name: string, ...conditions: string[]) => [
  `\t\t@${name} {`,
  ...conditions.map((c) => `\t\t\t${c}`),
  `\t\t}`,
];

const hasQuery = `expression \`{query} != ""\``;

function apiRoutes(routes: DomainRoutes): string[] {
  const lines: string[] = [];
  const json = { ...API_HEADERS, "Content-Type": JSON_TYPE };
  // The redirects below are API answers too: they carry the API's headers (CORS above all).
  const redirected = [
    ...slashRedirects(routes).map(escapeRegex),
    `${escapeRegex(routes.api)}${ID_PATTERN}`,
  ];
  lines.push(
    ...matcher("api_redirect", `path_regexp ^(?:${redirected.join("|")})$`),
    ...headerBlock("@api_redirect", API_HEADERS),
  );
  routes.crossOrigin.forEach((file, n) =>
    lines.push(
      ...matcher(`cross_origin${n}`, `path_regexp ${exact(file.path)}`),
      ...headerBlock(`@cross_origin${n}`, crossOriginHeaders(file.type), true),
    ),
  );
  slashRedirects(routes).forEach((path, n) => {
    lines.push(
      ...matcher(`slash${n}_q`, `path_regexp ${exact(path)}`, hasQuery),
      `\t\tredir @slash${n}_q ${path}/?{query} 301`,
    );
    lines.push(
      ...matcher(`slash${n}`, `path_regexp ${exact(path)}`),
      `\t\tredir @slash${n} ${path}/ 301`,
    );
  });
  const detailNoSlash = `path_regexp detail_ns ^${escapeRegex(routes.api)}(${ID_PATTERN})$`;
  lines.push(
    ...matcher("detail_ns_q", detailNoSlash, hasQuery),
    `\t\tredir @detail_ns_q ${routes.api}{re.detail_ns.1}/?{query} 301`,
  );
  lines.push(
    ...matcher("detail_ns", detailNoSlash),
    `\t\tredir @detail_ns ${routes.api}{re.detail_ns.1}/ 301`,
  );

  // Every API path gets the API headers, whatever the outcome.
  lines.push(
    ...matcher("api", `path_regexp ^${escapeRegex(routes.api)}`),
    ...headerBlock("@api", json),
  );

  const list = `path_regexp ${exact(routes.api)}`;
  const folders = QUERY_RULES.map((rule) => placeholder(rule.name));
  for (const rule of QUERY_RULES) {
    if (!("error" in rule.otherwise)) continue;
    lines.push(...matcher(`bad_${rule.name}`, list, `vars ${placeholder(rule.name)} "!"`));
    lines.push(`\t\trespond @bad_${rule.name} ${raw(errorBody(rule.otherwise.error))} 404`);
  }
  lines.push(
    ...matcher("list", list),
    `\t\trewrite @list ${listFile(folders[0]!, folders[1]!, folders[2]!)}`,
  );
  lines.push(
    ...matcher("detail", `path_regexp detail ^${escapeRegex(routes.api)}(${ID_PATTERN})/$`),
    `\t\trewrite @detail ${detailFile("{re.detail.1}")}`,
  );
  routes.exports.forEach((route, n) =>
    lines.push(
      ...matcher(`export${n}`, `path_regexp ${exact(route.path)}`),
      `\t\trewrite @export${n} ${route.file}`,
    ),
  );

  // Only the rewrites above lead here (/_api/ was refused earlier): a missing file is the API's 404.
  // (Checked after the rewrite: inside one matcher set, `file` may run before `path_regexp` fills {re.*}.)
  const missing = [
    ["list", listFile("*", "*", "*").replace(/\/\*\/\*\/\*\.json$/, "/*"), "invalid-page"],
    ["detail", detailFile("*").replace(/\*\.json$/, "*"), "not-found"],
    ["export", routes.exports[0]!.file.replace(/[^/]*$/, "*"), "not-found"],
  ] as const;
  for (const [name, prefix, error] of missing) {
    lines.push(
      ...matcher(`${name}_missing`, `path ${prefix}`, "not file"),
      `\t\trespond @${name}_missing ${raw(errorBody(error))} 404`,
    );
  }
  routes.exports.forEach((route, n) => {
    // Deferred: file_server would otherwise set the type it guesses from the extension.
    lines.push(...matcher(`export${n}_file`, `path ${route.file}`));
    lines.push(
      ...headerBlock(
        `@export${n}_file`,
        { "Content-Type": route.type, "Content-Disposition": route.contentDisposition },
        true,
      ),
    );
  });
  // Rewritten requests now have /_api/ paths; anything still under the API path is unknown.
  lines.push(`\t\trespond @api ${raw(errorBody("not-found"))} 404`);
  return lines;
}

function site(host: HostRoutes, dir: string, listen: Listen, fallback: boolean): string {
  const port = listen.port;
  const addresses = [`http://${host.host}:${port}`, ...(fallback ? [`http://:${port}`] : [])];
  const bind = listen.address.replace(/^\[(.*)\]$/, "$1");
  const lines = [
    `${addresses.join(", ")} {`,
    `\tbind ${bind}`,
    `\troot * ${dir}/${host.host}`,
    ...queryMaps(),
    `\troute {`,
  ];
  lines.push(`\t\tencode gzip`);
  // The host's own headers (nosniff, its policies), on every answer.
  lines.push(...headerBlock("", host.headers).map((line) => line.replace("header  {", "header {")));
  // What Node and nginx refuse before routing: a NUL in the decoded path, an overlong target.
  lines.push(...matcher("nul", "path_regexp \\x00"), `\t\trespond @nul 400`);
  lines.push(
    ...matcher("too_long", `expression \`size({uri}) > ${MAX_TARGET}\``),
    `\t\trespond @too_long 414`,
  );
  lines.push(
    ...matcher("options", "method OPTIONS"),
    ...headerBlock("@options", OPTIONS_HEADERS),
    `\t\trespond @options 200`,
  );
  lines.push(...matcher("refused", `not method ${[...READ_METHODS, "OPTIONS"].join(" ")}`));
  lines.push(...headerBlock("@refused", REFUSED_HEADERS));
  lines.push(`\t\trespond @refused ${raw(methodNotAllowedBody("{method}"))} 405`);
  const hidden = HIDDEN_PREFIXES.flatMap((prefix) => [prefix.slice(0, -1), `${prefix}*`]);
  lines.push(...matcher("hidden", `path ${hidden.join(" ")}`), `\t\terror @hidden 404`);
  lines.push(`\t\theader Cache-Control ${quoted(CACHE.short)}`);
  if (host.domain !== null) lines.push(...apiRoutes(host.domain));
  if (host.media.length > 0) {
    const media = `path ${host.media.map((p) => `${p}*`).join(" ")}`;
    lines.push(
      ...matcher("media", media),
      `\t\theader @media Cache-Control ${quoted(CACHE.immutable)}`,
    );
    if (host.domain === null)
      lines.push(...matcher("not_media", `not ${media}`), `\t\terror @not_media 404`);
  }
  // A directory without its slash: 301 (file_server's own redirect would be a 308).
  const directory = ["not path */", "file {\n\t\t\t\ttry_files {path}/\n\t\t\t}"];
  lines.push(...matcher("dir_q", ...directory, hasQuery), `\t\tredir @dir_q {path}/?{query} 301`);
  lines.push(...matcher("dir", ...directory), `\t\tredir @dir {path}/ 301`);
  // Content types from the one table (mime.ts) rather than Go's, which says text/xml for .xml and
  // knows .atom or .txt only from the system's mime.types. Deferred, as file_server sets its guess.
  for (const [ext, type] of Object.entries(MIME_TYPES))
    lines.push(
      ...matcher(`type_${ext}`, `path *.${ext}`),
      ...headerBlock(`@type_${ext}`, { "Content-Type": type }, true),
    );
  lines.push(`\t\tfile_server {`, `\t\t\tdisable_canonical_uris`, `\t\t}`, `\t}`);
  if (host.domain !== null) {
    const status = "expression `{http.error.status_code} == 404`";
    // A language version's 404 page under its folder; rewrites at one level are mutually
    // exclusive, the first that matches wins: the versions' before the domain's.
    const languages = host.domain.languageNotFound.flatMap(({ prefix, page }, n) => [
      ...matcher(`not_found_${n}`, status, `path ${prefix.slice(0, -1)} ${prefix}*`).map((line) =>
        line.slice(1),
      ),
      `\t\trewrite @not_found_${n} ${page}`,
    ]);
    lines.push(
      `\thandle_errors {`,
      ...languages,
      `\t\t@not_found ${status}`,
      `\t\trewrite @not_found ${host.domain.notFoundPage}`,
      `\t\tfile_server @not_found {`,
      `\t\t\tstatus 404`,
      `\t\t}`,
      `\t}`,
    );
  }
  lines.push(`}`);
  return lines.join("\n");
}

export function caddyConfig(info: BuildInfo, dir: string, listen: Listen): string {
  const table = hostTable(info);
  return `# Caddyfile of the catalogue build in ${dir}
# Generated by "catalogue config caddy" from ${dir}/_catalogue/build.json: regenerate it when
# domains change. A rebuild of the same domains needs no reload (${dir} is followed per request).
# Run: caddy run --adapter caddyfile --config FILE
{
\tadmin off
\tauto_https off
\tservers {
\t\ttimeouts {
\t\t\tread_header 10s
\t\t\tread_body 10s
\t\t\tidle 60s
\t\t}
\t}
}

${table.map((host, index) => site(host, dir, listen, index === 0)).join("\n\n")}
`;
}
