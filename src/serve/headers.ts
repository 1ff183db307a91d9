import type { DomainInfo } from "../output/build-info.ts";

/**
 * The security headers of docs/interface.md#routing, as data: what every answer of a host
 * carries, whichever server sends it. routes.ts puts them in each host's entry of the routing
 * table; the servers and configurations copy them from there.
 */

/** Every answer of every host: a browser never reads a file as another type than the one sent. */
export const NOSNIFF = { "X-Content-Type-Options": "nosniff" } as const;

/**
 * Referrer-Policy: other sites learn which catalogue a reader came from, not which page (the
 * browsers' default, sent explicitly so older browsers and the Observatory see it).
 */
export const REFERRER_POLICY = "strict-origin-when-cross-origin";

/** HSTS for a year; subdomains are left alone (a library's other hosts may not have TLS). */
export const HSTS = "max-age=31536000";

/** The origin of an absolute URL (`https://host[:port]`). */
const originOf = (url: string) => new URL(url).origin;

/**
 * The Content-Security-Policy of a domain's pages. Everything the site loads is its own (its
 * stylesheet, search.js, Pagefind's bundle and WebAssembly, dev's reload script and event
 * stream), except the covers when `media_url` is on another host. No inline script, no `eval`:
 * `'wasm-unsafe-eval'` lets Pagefind compile its WebAssembly and nothing else; JSON-LD is data,
 * which a policy does not govern. Nothing is allowed by default, so a new kind of resource must be
 * named here.
 */
export function contentSecurityPolicy(domain: DomainInfo): string {
  const site = originOf(domain.base_url);
  const media = originOf(domain.media_url);
  return policyWithImagesFrom(media === site ? [] : [media]);
}

/** The pages' policy, with covers also taken from these other origins. */
export function policyWithImagesFrom(mediaOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    // data: for the offline archive's root page, whose icon is `data:,` (no request from file://); the site's pages link a real favicon.
    ["img-src 'self' data:", ...mediaOrigins].join(" "),
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

/**
 * Headers of every answer of a domain's host (pages, API, files, errors, redirects): the policy
 * costs nothing on a JSON or image answer, and one rule per host is what every server can say
 * (nginx and Caddy cannot pick headers by the type of the file they end up sending).
 * HSTS only where the base URL is https: where TLS ends in front of the server, the header
 * still reaches the browser through it.
 */
export function domainHeaders(domain: DomainInfo): Record<string, string> {
  return {
    ...NOSNIFF,
    "Content-Security-Policy": contentSecurityPolicy(domain),
    "Referrer-Policy": REFERRER_POLICY,
    ...(domain.base_url.startsWith("https:") ? { "Strict-Transport-Security": HSTS } : {}),
  };
}

/** Headers of a host that only serves media: HSTS when every media_url naming it is https. */
export function mediaHostHeaders(mediaUrls: string[]): Record<string, string> {
  const https = mediaUrls.length > 0 && mediaUrls.every((url) => url.startsWith("https:"));
  return { ...NOSNIFF, ...(https ? { "Strict-Transport-Security": HSTS } : {}) };
}
