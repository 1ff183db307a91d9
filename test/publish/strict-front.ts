import { randomBytes } from "node:crypto";
import { createServer, request, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { parseAuthorization, verifySigV4 } from "./sigv4.ts";
import { asyncHandler } from "../support/async-handler.ts";

/**
 * A front on loopback, in front of s3rver, that checks requests as AWS S3 does where s3rver does
 * not: the region of the SigV4 credential scope (a bucket lives in one region), the request's
 * time against its own clock (15 minutes either way), and the signature itself. Its clock can be
 * set hours away from this machine's: the publisher's process clock cannot be moved, so the
 * store's is, and every answer's `Date` tells it, as S3's do. What it forwards is dated by the
 * real clock again (s3rver checks the time too, though not version 4 signatures).
 */

export interface FrontOptions {
  /** s3rver's endpoint. */
  upstream: string;
  /** The secret key every request must be signed with. */
  secret: string;
  /** The buckets' region: a request signed for another is refused. */
  region: string;
  /**
   * How a wrong region is refused: a 400 AuthorizationHeaderMalformed naming the region (as S3
   * does at a regional endpoint), or a 301 PermanentRedirect naming the bucket's endpoint.
   */
  wrongRegion?: "malformed" | "redirect";
  /** Whether refusals carry `x-amz-bucket-region` (S3's do; false: the body alone names the region). */
  regionHeader?: boolean;
  /** The front's clock minus this machine's, in ms. */
  clockOffsetMs?: number;
  /**
   * Where answers tell the front's time: the `Date` header and a RequestTimeTooSkewed's
   * `ServerTime` element (as S3 does), one of them, or neither (a proxy that strips the header).
   */
  tellsTime?: "both" | "date" | "body" | "none";
  /** A broken store: refuses every request, for its time or for its region, whatever it says. */
  refuseAll?: "time" | "region";
}

export interface StrictFront {
  endpoint: string;
  /** Refusals by S3 error code, and forwarded requests by method. */
  refused: Record<string, number>;
  forwarded: Record<string, number>;
  /** The regions of the credential scopes of forwarded requests. */
  regions: Set<string>;
  /** The Host of every request. */
  hosts: Set<string>;
  stop(): Promise<void>;
}

const MAX_SKEW_MS = 15 * 60_000;

/** `20261126T031500Z` ⇄ ms. */
const parseAmzDate = (text: string) => {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text);
  return m === null ? NaN : Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
};
const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}/, "");

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

export async function startStrictFront(options: FrontOptions): Promise<StrictFront> {
  const offset = options.clockOffsetMs ?? 0;
  const upstream = new URL(options.upstream);
  const front: StrictFront = {
    endpoint: "",
    refused: {},
    forwarded: {},
    regions: new Set(),
    hosts: new Set(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const tells = options.tellsTime ?? "both";
  /** The answer's Date, by the front's clock (none at all unless it tells its time there). */
  function dated(res: ServerResponse): Record<string, string> {
    if (tells === "both" || tells === "date")
      return { date: new Date(Date.now() + offset).toUTCString() };
    res.sendDate = false;
    return {};
  }

  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    extra: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    front.refused[code] = (front.refused[code] ?? 0) + 1;
    const elements = Object.entries(extra)
      .map(([name, value]) => `<${name}>${value}</${name}>`)
      .join("");
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message>${elements}<RequestId>${randomBytes(8).toString("hex").toUpperCase()}</RequestId><HostId>front</HostId></Error>`;
    res.writeHead(status, { ...dated(res), "content-type": "application/xml", ...headers });
    // S3 answers a HEAD with the status and headers only.
    res.end(req.method === "HEAD" ? undefined : body);
  }

  const server = createServer(
    asyncHandler(async (req, res) => {
      const body = await readBody(req);
      const now = Date.now() + offset;
      front.hosts.add(String(req.headers.host));
      const auth = parseAuthorization(req.headers.authorization);
      if (auth === null) return refuse(req, res, 403, "AccessDenied", "Access Denied");
      // AWS's own host names (a publisher without --endpoint, led here by aws-loopback.cjs) name
      // the bucket and the region: `site.s3.eu-west-1.amazonaws.com`.
      const vhost = /^([^.]+)\.s3[.-]([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com$/.exec(
        String(req.headers.host ?? ""),
      );
      const bucket = vhost?.[1] ?? new URL(req.url!, "http://front").pathname.split("/")[1] ?? "";
      const wrongHost = vhost !== null && vhost[2] !== options.region;
      if (auth.region !== options.region || wrongHost || options.refuseAll === "region") {
        const headers: Record<string, string> =
          options.regionHeader === false ? {} : { "x-amz-bucket-region": options.region };
        // A bucket asked for at another region's endpoint, signed for that region: S3 redirects.
        if (options.wrongRegion === "redirect" || (wrongHost && auth.region === vhost[2])) {
          return refuse(
            req,
            res,
            301,
            "PermanentRedirect",
            "The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.",
            { Endpoint: `${bucket}.s3.${options.region}.amazonaws.com`, Bucket: bucket },
            headers,
          );
        }
        return refuse(
          req,
          res,
          400,
          "AuthorizationHeaderMalformed",
          `The authorization header is malformed; the region '${auth.region}' is wrong; expecting '${options.region}'`,
          { Region: options.region },
          headers,
        );
      }
      const signedAt = parseAmzDate(String(req.headers["x-amz-date"] ?? ""));
      if (Number.isNaN(signedAt))
        return refuse(
          req,
          res,
          403,
          "AccessDenied",
          "AWS authentication requires a valid Date or x-amz-date header",
        );
      if (Math.abs(signedAt - now) > MAX_SKEW_MS || options.refuseAll === "time") {
        return refuse(
          req,
          res,
          403,
          "RequestTimeTooSkewed",
          "The difference between the request time and the current time is too large.",
          {
            RequestTime: String(req.headers["x-amz-date"]),
            ...(tells === "both" || tells === "body" ? { ServerTime: iso(now) } : {}),
            MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
          },
        );
      }
      if (
        auth.day !== String(req.headers["x-amz-date"]).slice(0, 8) ||
        !verifySigV4(
          { method: req.method!, path: req.url!, headers: req.headers, body },
          options.secret,
        )
      ) {
        return refuse(
          req,
          res,
          403,
          "SignatureDoesNotMatch",
          "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        );
      }
      front.forwarded[req.method!] = (front.forwarded[req.method!] ?? 0) + 1;
      front.regions.add(auth.region);
      // Dated again by the real clock, which s3rver checks; it does not check the signature.
      // s3rver takes buckets in the path only (the bucket itself without a trailing slash), and
      // reads AWS's host names as naming one: it is given its own.
      const headers = {
        ...req.headers,
        "x-amz-date": amzDate(signedAt - offset),
        ...(vhost === null ? {} : { host: upstream.host }),
      };
      const path =
        vhost === null
          ? req.url
          : `/${bucket}${/^\/(\?|$)/.test(req.url!) ? req.url!.slice(1) : req.url}`;
      const forward = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path, headers },
        (answer) => {
          const { date: _real, ...rest } = answer.headers;
          res.writeHead(answer.statusCode!, { ...rest, ...dated(res) });
          answer.pipe(res);
        },
      );
      forward.on("error", () => res.destroy());
      forward.end(body);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  front.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return front;
}
