import type { BuildInfo } from "../output/build-info.ts";
import type { Listen } from "./listen.ts";
import { DEFAULT_TYPE, MIME_TYPES } from "./mime.ts";
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
 * `catalogue config nginx`: the routing table of routes.ts in nginx's language. Query values
 * reach file paths only through `map`s whose results are whitelisted folder names or digits.
 * Run: nginx -p PREFIX -c FILE -g 'daemon off; pid FILE;'
 */

/**
 * An nginx string literal. nginx expands `$name` inside quotes too and has no escape for it: the
 * values that come from a library's files (hosts, paths, header values) are checked by validate
 * (util/server-values.ts) and asserted where they are written (`header`, routes.ts); configDir
 * keeps them out of --dir. The fixed values (the maps' patterns) hold `$` on purpose.
 */
const str = (value: string) => `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

const variable = (name: string) => `catalogue_${name}`;

type Entries = Record<string, string>;

/**
 * `add_header` lines; `always` so 404s and 405s carry them too. A location with an `add_header`
 * inherits none from its server, so every location repeats the host's own headers (`own`).
 * Content-Type is never one of them: `default_type` sets it.
 */
const headers = (own: Entries, entries: Entries, indent: string) =>
  Object.entries({ ...own, ...entries })
    .filter(([name]) => name !== "Content-Type")
    .map(
      ([name, value]) =>
        `${indent}add_header ${name} ${str(assertServable("header", value, name))} always;`,
    )
    .join("\n");

function queryMaps(): string {
  const lines: string[] = [];
  for (const rule of QUERY_RULES) {
    const raw = variable(`${rule.name}_arg`);
    // `x` marks presence: "" is absent, "x" a bare name, "x=v" a value.
    lines.push(
      `map $args $${raw} {`,
      `  ${str(`~${paramPattern(rule.name)}`)} "x$1";`,
      `  default "";`,
      `}`,
    );
    lines.push(`map $${raw} $${variable(rule.name)} {`, `  "" ${rule.absent};`);
    // Regexes, not strings: nginx compares map strings ignoring case, the other servers do not.
    for (const [value, folder] of Object.entries(rule.values))
      lines.push(`  ${str(`~^x=${escapeRegex(value)}$`)} ${folder};`);
    if (rule.pattern !== undefined) {
      const capture = variable(`${rule.name}_value`);
      lines.push(`  ${str(`~^x=(?<${capture}>${rule.pattern.slice(1, -1)})$`)} $${capture};`);
    }
    lines.push(`  default ${"error" in rule.otherwise ? "!" : rule.otherwise.folder};`, `}`);
  }
  lines.push(`map $request_method $${variable("refused")} {`);
  for (const method of [...READ_METHODS, "OPTIONS"]) lines.push(`  ${method} 0;`);
  lines.push(`  default 1;`, `}`);
  return lines.join("\n");
}

function apiLocations(routes: DomainRoutes, own: Entries): string[] {
  const i = "    ";
  const apiHeaders = (type: string, indent: string, extra: Entries = {}) =>
    `${indent}types { }\n${indent}default_type ${str(type)};\n${headers(own, { ...API_HEADERS, ...extra }, indent)}`;
  const blocks: string[] = [];
  for (const path of slashRedirects(routes)) {
    blocks.push(
      `  location = ${path} {\n${headers(own, API_HEADERS, i)}\n${i}return 301 ${path}/$is_args$args;\n  }`,
    );
  }
  blocks.push(
    `  location ~ "^${escapeRegex(routes.api)}(${ID_PATTERN})$" {\n${headers(own, API_HEADERS, i)}\n${i}return 301 $uri/$is_args$args;\n  }`,
  );

  const format = QUERY_RULES.map((rule) => `$${variable(rule.name)}`);
  const errors = QUERY_RULES.flatMap((rule) =>
    "error" in rule.otherwise
      ? [
          `${i}if ($${variable(rule.name)} = "!") {\n${i}  return 404 ${str(errorBody(rule.otherwise.error))};\n${i}}`,
        ]
      : [],
  );
  blocks.push(
    `  location = ${routes.api} {\n${apiHeaders(JSON_TYPE, i)}\n${errors.join("\n")}\n` +
      `${i}error_page 404 = @catalogue_invalid_page;\n${i}try_files ${listFile(format[0]!, format[1]!, format[2]!)} =404;\n  }`,
  );
  blocks.push(
    `  location ~ "^${escapeRegex(routes.api)}(?<catalogue_id>${ID_PATTERN})/$" {\n${apiHeaders(JSON_TYPE, i)}\n` +
      `${i}error_page 404 = @catalogue_not_found;\n${i}try_files ${detailFile("$catalogue_id")} =404;\n  }`,
  );
  for (const route of routes.exports) {
    blocks.push(
      `  location = ${route.path} {\n${apiHeaders(route.type, i, { "Content-Disposition": route.contentDisposition })}\n` +
        `${i}error_page 404 = @catalogue_not_found;\n${i}try_files ${route.file} =404;\n  }`,
    );
  }
  // Anything else under the API path: the API's own 404.
  blocks.push(
    `  location ${routes.api} {\n${apiHeaders(JSON_TYPE, i)}\n${i}return 404 ${str(errorBody("not-found"))};\n  }`,
  );
  for (const [name, error] of [
    ["invalid_page", "invalid-page"],
    ["not_found", "not-found"],
  ] as const) {
    blocks.push(
      `  location @catalogue_${name} {\n${apiHeaders(JSON_TYPE, i)}\n${i}return 404 ${str(errorBody(error))};\n  }`,
    );
  }
  for (const file of routes.crossOrigin)
    blocks.push(
      `  location = ${file.path} {\n${i}types { }\n${i}default_type ${str(file.type)};\n${headers(own, crossOriginHeaders(file.type), i)}\n` +
        `${i}error_page 404 = @catalogue_not_found;\n${i}try_files $uri =404;\n  }`,
    );
  return blocks;
}

/** The directives of a host's `server` block but its `listen` and `server_name`: the whole routing table. */
function serverBody(host: HostRoutes, dir: string): string[] {
  const i = "    ";
  const own = host.headers;
  const lines = [
    `  root ${str(`${dir}/${host.host}`)};`,
    // Links inside a domain's folder are not followed (the build has none); DIR itself may be one.
    `  disable_symlinks on from=$document_root;`,
    `  index index.html;`,
    `  autoindex off;`,
  ];
  if (host.domain !== null) {
    lines.push(
      `  error_page 404 ${host.domain.notFoundPage};`,
      `  error_page 403 =404 ${host.domain.notFoundPage};`,
    );
  }
  lines.push(
    // Server-level rewrites run before any location: the method rules hold on every path.
    `  if ($request_method = OPTIONS) {\n${i}rewrite ^ /_catalogue_options last;\n  }`,
    `  if ($${variable("refused")}) {\n${i}rewrite ^ /_catalogue_refused last;\n  }`,
    `  location = /_catalogue_options {\n${i}internal;\n${headers(own, OPTIONS_HEADERS, i)}\n${i}return 200;\n  }`,
    `  location = /_catalogue_refused {\n${i}internal;\n${i}default_type ${str(JSON_TYPE)};\n${headers(own, REFUSED_HEADERS, i)}\n` +
      `${i}return 405 ${str(methodNotAllowedBody("$request_method"))};\n  }`,
    // nginx refuses TRACE itself, before the rewrites above: its 405 comes here.
    `  error_page 405 = @catalogue_refused;`,
    `  location @catalogue_refused {\n${i}default_type ${str(JSON_TYPE)};\n${headers(own, REFUSED_HEADERS, i)}\n` +
      `${i}return 405 ${str(methodNotAllowedBody("$request_method"))};\n  }`,
    // Answers of no location below (400, 414, a media host's 404) carry the host's headers too.
    headers(own, {}, "  "),
  );
  for (const prefix of HIDDEN_PREFIXES)
    lines.push(`  location ^~ ${prefix} {\n${i}return 404;\n  }`);
  if (host.domain !== null) lines.push(...apiLocations(host.domain, own));
  for (const prefix of host.media) {
    const where = prefix === "/" ? "/" : `^~ ${prefix}`;
    lines.push(
      `  location ${where} {\n${headers(own, { "Cache-Control": CACHE.immutable }, i)}\n${i}try_files $uri =404;\n  }`,
    );
  }
  if (!host.media.includes("/")) {
    lines.push(
      host.domain === null
        ? `  location / {\n${i}return 404;\n  }`
        : `  location / {\n${headers(own, { "Cache-Control": CACHE.short }, i)}\n  }`,
    );
  }
  // A language version's folder: its own 404 page. error_page at a location replaces all the
  // server's, so the 405 handler is named again.
  for (const { prefix, page } of host.domain?.languageNotFound ?? []) {
    lines.push(
      `  location ^~ ${prefix} {\n${headers(own, { "Cache-Control": CACHE.short }, i)}\n` +
        `${i}error_page 404 ${page};\n${i}error_page 403 =404 ${page};\n${i}error_page 405 = @catalogue_refused;\n  }`,
    );
  }
  return lines;
}

function server(host: HostRoutes, dir: string, listen: Listen, fallback: boolean): string {
  const head = [
    `server {`,
    `  listen ${listen.address}:${listen.port}${fallback ? " default_server" : ""};`,
    `  server_name ${host.host};`,
  ];
  return [...head, ...serverBody(host, dir), `}`].join("\n");
}

const typesBlock = (indent: string) =>
  `${indent}types {\n${Object.entries(MIME_TYPES)
    .map(([ext, type]) => `${indent}  ${str(type)} ${ext};`)
    .join("\n")}\n${indent}}\n${indent}default_type ${str(DEFAULT_TYPE)};`;

const GZIP_TYPES =
  "application/json text/css text/javascript text/plain application/xml application/atom+xml image/svg+xml application/manifest+json";

export interface NginxSnippets {
  /** For the `http` block (nginx allows `map` only there): the query maps. */
  http: string;
  /** For the `server` block of one host: its types, compression and every `location`. */
  server: string;
}

/**
 * `catalogue config nginx --snippets FOLDER`: the same configuration as include-able files for
 * a server the library already runs. Every variable is named `catalogue_…`, so the maps cannot
 * clash with the library's own.
 */
export function nginxSnippets(info: BuildInfo, dir: string, hostName: string): NginxSnippets {
  const host = hostTable(info).find((h) => h.host === hostName);
  if (host === undefined) throw new Error(`bug: no host ${hostName} in the build`);
  const header = (where: string) =>
    `# catalogue: include in the ${where} of nginx (generated by "catalogue config nginx --snippets" from ${dir}/_catalogue/build.json)`;
  return {
    http: `${header("http block")}\n${queryMaps()}\n`,
    server: [
      `${header(`server block of ${host.host} (its listen, server_name and TLS stay yours)`)}`,
      // The build's own types and compression, whatever the http block says.
      typesBlock("  "),
      `  gzip on;\n  gzip_vary on;\n  gzip_min_length 256;\n  gzip_types ${GZIP_TYPES};`,
      // Redirects carry a path only, as the complete configuration's do.
      `  absolute_redirect off;\n  server_tokens off;`,
      ...serverBody(host, dir),
      "",
    ].join("\n"),
  };
}

export function nginxConfig(info: BuildInfo, dir: string, listen: Listen): string {
  const table = hostTable(info);
  return `# nginx configuration of the catalogue build in ${dir}
# Generated by "catalogue config nginx" from ${dir}/_catalogue/build.json: regenerate it when
# domains change. A rebuild of the same domains needs no reload (${dir} is followed per request).
# Run: nginx -p PREFIX -c FILE -g 'daemon off; pid FILE;'
worker_processes auto;
error_log stderr;

events {
  worker_connections 1024;
}

http {
${typesBlock("  ")}
  access_log /dev/stdout;
  # Temporary files under PREFIX, so nginx runs as any user.
  client_body_temp_path client_body_temp;
  proxy_temp_path proxy_temp;
  fastcgi_temp_path fastcgi_temp;
  uwsgi_temp_path uwsgi_temp;
  scgi_temp_path scgi_temp;
  sendfile on;
  tcp_nopush on;
  server_tokens off;
  # Redirects carry a path only, whatever the Host.
  absolute_redirect off;
  # Slow or idle clients are dropped.
  client_header_timeout 10s;
  client_body_timeout 10s;
  send_timeout 30s;
  keepalive_timeout 5s;
  client_max_body_size 1k;
  gzip on;
  gzip_vary on;
  gzip_min_length 256;
  gzip_types ${GZIP_TYPES};

${queryMaps()}

${table.map((host, index) => server(host, dir, listen, index === 0)).join("\n\n")}
}
`;
}
