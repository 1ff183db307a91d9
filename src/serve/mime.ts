/**
 * Content types by file extension, for `catalogue serve` and the nginx configuration (Caddy uses
 * Go's table, which agrees on these). Text types carry a charset, except JSON, whose type the
 * contract fixes as exactly `application/json`.
 */
export const MIME_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  json: "application/json",
  map: "application/json",
  webmanifest: "application/manifest+json",
  xml: "application/xml",
  atom: "application/atom+xml",
  txt: "text/plain; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  woff: "font/woff",
  woff2: "font/woff2",
  wasm: "application/wasm",
  pdf: "application/pdf",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  mrc: "application/marc",
};

export const DEFAULT_TYPE = "application/octet-stream";

export function mimeType(file: string): string {
  const slash = file.lastIndexOf("/");
  const dot = file.lastIndexOf(".");
  if (dot <= slash + 1) return DEFAULT_TYPE;
  return MIME_TYPES[file.slice(dot + 1).toLowerCase()] ?? DEFAULT_TYPE;
}

/** Types worth compressing on the fly (images and fonts are compressed already). */
export const isCompressible = (type: string) =>
  /^(text\/|application\/(json|javascript|xml|atom\+xml|marc|marcxml\+xml|manifest\+json)|image\/svg\+xml)/.test(
    type,
  );
