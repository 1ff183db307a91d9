/**
 * The region of a bucket, as S3 names it when it refuses a request signed for another region:
 * a 400 AuthorizationHeaderMalformed ("the region 'us-east-1' is wrong; expecting 'eu-west-1'")
 * with a `Region` element, a 301 PermanentRedirect with the bucket's regional `Endpoint`, and on
 * either (and on a HeadBucket's bodiless 400 or 301) the `x-amz-bucket-region` header. The
 * SDK's `followRegionRedirects` acts only on a 301 or a HeadBucket's 400 carrying the header,
 * and for one request at a time; the target follows the region once for all its requests.
 */

interface Refused {
  name?: string;
  Region?: unknown;
  Endpoint?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

const REGION = /^[a-z]{2}(?:-[a-z]+)+-\d+$/;

/** The region the answer says the bucket is in, when it refused the request for its region; else undefined. */
export function namedRegion(error: unknown): string | undefined {
  const e = (error ?? {}) as Refused;
  const status = e.$metadata?.httpStatusCode;
  const header = e.$response?.headers?.["x-amz-bucket-region"];
  const wrongRegion =
    status === 301 ||
    e.name === "PermanentRedirect" ||
    e.name === "AuthorizationHeaderMalformed" ||
    e.name === "IllegalLocationConstraintException" ||
    (status === 400 && header !== undefined);
  if (!wrongRegion) return undefined;
  const named = [header, e.Region, regionOfEndpoint(e.Endpoint)].find(
    (r): r is string => typeof r === "string" && REGION.test(r),
  );
  return named;
}

/** `site.s3.eu-west-1.amazonaws.com` (or `s3-eu-west-1`, dual-stack): its region. */
function regionOfEndpoint(endpoint: unknown): string | undefined {
  if (typeof endpoint !== "string") return undefined;
  return /(?:^|\.)s3[.-](?:dualstack\.)?([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?$/.exec(
    endpoint,
  )?.[1];
}

/**
 * An --endpoint that is AWS's own regional S3 endpoint (`https://s3.us-east-1.amazonaws.com`),
 * moved to `region`: a bucket answers only at its region's. Any other endpoint (an S3-compatible
 * store, a proxy) is kept, and only the signing region changes.
 */
export function endpointFor(endpoint: string | undefined, region: string): string | undefined {
  if (endpoint === undefined) return undefined;
  const url = new URL(endpoint);
  const match =
    /^((?:[^.]+\.)*s3[.-](?:dualstack\.)?)([a-z]{2}(?:-[a-z]+)+-\d+)(\.amazonaws\.com(?:\.cn)?)$/.exec(
      url.hostname,
    );
  if (match === null) return endpoint;
  url.hostname = `${match[1]}${region}${match[3]}`;
  return url.toString().replace(/\/$/, endpoint.endsWith("/") ? "/" : "");
}
