import type { DomainInfo } from "../output/build-info.ts";
import { mergeSources, pagePolicy } from "../web/policy.ts";
import { assertServable } from "../util/server-values.ts";

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
 * The Content-Security-Policy of a domain's pages (src/web/policy.ts): the covers' origin when
 * `media_url` is on another host, and the sources the library's `site/content-security.json` adds.
 */
export const contentSecurityPolicy = (domain: DomainInfo): string =>
  sharedContentSecurityPolicy([domain]);

/**
 * One policy for the pages of several domains (a CloudFront response headers policy cannot
 * depend on the host): every domain's media origin, and every domain's added sources.
 */
export function sharedContentSecurityPolicy(domains: readonly DomainInfo[]): string {
  const media = new Set<string>();
  for (const domain of domains)
    if (originOf(domain.media_url) !== originOf(domain.base_url))
      media.add(originOf(domain.media_url));
  return pagePolicy([...media].sort(), mergeSources(domains.map((d) => d.content_security)));
}

/**
 * Headers of every answer of a domain's host (pages, API, files, errors, redirects): the policy
 * costs nothing on a JSON or image answer, and one rule per host is what every server can say
 * (nginx and Caddy cannot pick headers by the type of the file they end up sending).
 * HSTS only where the base URL is https: where TLS ends in front of the server, the header
 * still reaches the browser through it.
 */
export function domainHeaders(domain: DomainInfo): Record<string, string> {
  return servable({
    ...NOSNIFF,
    "Content-Security-Policy": contentSecurityPolicy(domain),
    "Referrer-Policy": REFERRER_POLICY,
    ...(domain.base_url.startsWith("https:") ? { "Strict-Transport-Security": HSTS } : {}),
  });
}

/**
 * Headers whose every value each server sends as written: validate refused anything else at its
 * line (util/server-values.ts), so a value that is not is a bug. Checked once per host, when the
 * routing table is made.
 */
export function servable(headers: Record<string, string>): Record<string, string> {
  for (const [name, value] of Object.entries(headers)) assertServable("header", value, name);
  return headers;
}

/** Headers of a host that only serves media: HSTS when every media_url naming it is https. */
export function mediaHostHeaders(mediaUrls: string[]): Record<string, string> {
  const https = mediaUrls.length > 0 && mediaUrls.every((url) => url.startsWith("https:"));
  return servable({ ...NOSNIFF, ...(https ? { "Strict-Transport-Security": HSTS } : {}) });
}
