import http from "node:http";
import https from "node:https";
import type { S3Client } from "@aws-sdk/client-s3";
import { escapeUriPath } from "@smithy/core/protocols";
import { getEndpointFromInstructions } from "@smithy/core/endpoints";
import { SignatureV4 } from "@smithy/signature-v4";
import { setClockFrom, signingDate } from "./s3-clock.ts";

/**
 * PutObject without the SDK's middleware stack. A first publish is tens of thousands of small
 * uploads, and the SDK spends more CPU on each (its schema serialiser, endpoint parameters,
 * middleware, signer) than sending it takes, on cores that a store on the same machine also
 * needs (docs/performance.md#the-work-that-is-done-cheaper). The same request, from the
 * same pieces of the SDK (its endpoint for the bucket, its credentials, its SigV4 signer), sent
 * with Node's own HTTP client, costs a fraction of that. Lists, reads and deletes, a few per
 * publish, stay with the SDK.
 */

type Sdk = typeof import("@aws-sdk/client-s3");

export interface PutObject {
  key: string;
  body: Buffer;
  md5: string;
  contentType: string;
  cacheControl?: string;
  contentDisposition?: string;
}

export interface DirectPut {
  /** Uploads one object; its ETag ("" when the answer had none), or an error shaped like the SDK's. */
  put(object: PutObject): Promise<string>;
}

/**
 * What a put needs from the client, resolved once per target: the bucket's endpoint and signer.
 * Null for a bucket that is signed otherwise than with Signature V4 (an S3 Express directory
 * bucket's session auth, a multi-region access point's SigV4a): its uploads stay with the SDK.
 */
export async function directPut(
  client: S3Client,
  sdk: Sdk,
  bucket: string,
  timeoutMs: number,
): Promise<DirectPut | null> {
  // The endpoint of PutObject for this bucket, by the SDK's own rules (virtual host or path style,
  // --endpoint with its base path, FIPS and dual-stack settings), and how to sign for it.
  const endpoint = await getEndpointFromInstructions(
    { Bucket: bucket, Key: "k" },
    sdk.PutObjectCommand,
    client.config,
  );
  const schemes = (endpoint.properties?.authSchemes ?? []) as {
    name?: string;
    signingName?: string;
    signingRegion?: string;
  }[];
  // No scheme named: the SDK signs with SigV4 for the client's region, as below.
  const scheme = schemes.length === 0 ? {} : schemes[0]!;
  if (schemes.length > 0 && scheme.name !== "sigv4") return null;
  const url = endpoint.url;
  const signer = new SignatureV4({
    credentials: client.config.credentials,
    region: scheme.signingRegion ?? (await client.config.region()),
    service: scheme.signingName ?? "s3",
    sha256: client.config.sha256,
    // S3 signs the path as sent, without encoding it twice.
    uriEscapePath: false,
  });
  const secure = url.protocol === "https:";
  const transport = secure ? https : http;
  const agent = new transport.Agent({ keepAlive: true, maxSockets: 50 });
  const base = url.pathname.replace(/\/+$/, "");
  const port = url.port === "" ? undefined : Number(url.port);

  async function put(object: PutObject): Promise<string> {
    const headers: Record<string, string> = {
      host: url.host,
      "content-length": String(object.body.length),
      "content-md5": contentMd5(object),
      "content-type": object.contentType,
    };
    if (object.cacheControl !== undefined) headers["cache-control"] = object.cacheControl;
    if (object.contentDisposition !== undefined)
      headers["content-disposition"] = object.contentDisposition;
    const signed = await signer.sign(
      {
        method: "PUT",
        protocol: url.protocol,
        hostname: url.hostname,
        port,
        path: `${base}/${escapeUriPath(object.key)}`,
        query: {},
        headers,
        body: object.body,
      },
      // By the store's clock, as the SDK signs (s3-clock.ts).
      { signingDate: signingDate(client) },
    );
    return send(signed.path, signed.headers, object.body);
  }

  function send(path: string, headers: Record<string, string>, body: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = transport.request(
        {
          method: "PUT",
          protocol: url.protocol,
          hostname: url.hostname,
          port,
          path,
          headers,
          agent,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) {
            response.resume();
            response.on("end", () =>
              resolve(String(response.headers.etag ?? "").replace(/"/g, "")),
            );
            response.on("error", reject);
            return;
          }
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", reject);
          response.on("end", () => {
            const error = serviceError(
              sdk,
              status,
              Buffer.concat(chunks).toString("utf8"),
              response.headers,
            );
            // As the SDK's signer does with an error answer: the store's time (a RequestTimeTooSkewed's
            // ServerTime, else the Date) sets the clock the next request is signed with.
            setClockFrom(client, error.ServerTime ?? response.headers.date);
            reject(error);
          });
        },
      );
      // A request that receives nothing for this long fails like the SDK's (a TimeoutError), and
      // is retried like a dropped connection.
      request.setTimeout(timeoutMs, () => {
        const error = new Error(`no answer for ${timeoutMs} ms`);
        error.name = "TimeoutError";
        request.destroy(error);
      });
      request.on("error", reject);
      request.end(body);
    });
  }

  return { put };
}

/** The same upload through the SDK's PutObject: for buckets that `directPut` leaves to it. */
export async function sdkPut(
  client: S3Client,
  sdk: Sdk,
  bucket: string,
  object: PutObject,
): Promise<string> {
  const result = await client.send(
    new sdk.PutObjectCommand({
      Bucket: bucket,
      Key: object.key,
      Body: object.body,
      ContentLength: object.body.length,
      ContentMD5: contentMd5(object),
      ContentType: object.contentType,
      CacheControl: object.cacheControl,
      ContentDisposition: object.contentDisposition,
    }),
  );
  return (result.ETag ?? "").replace(/"/g, "");
}

const contentMd5 = (object: PutObject) => Buffer.from(object.md5, "hex").toString("base64");

/**
 * An error answer as the SDK would have raised it: its S3 code as the name, the HTTP status, the
 * elements that say where the bucket is (Region, Endpoint) and what time the store has
 * (ServerTime), and the answer's headers (its Date, its x-amz-bucket-region) where the SDK keeps them.
 */
function serviceError(
  sdk: Sdk,
  status: number,
  body: string,
  headers: http.IncomingHttpHeaders,
): Error & { ServerTime?: string } {
  const tag = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(body)?.[1];
  const code = tag("Code");
  const requestId = headers["x-amz-request-id"];
  const error = new sdk.S3ServiceException({
    // An answer with no S3 error document (a web page, another API) is no S3 error: explain() says
    // that the endpoint is wrong, as it does for the SDK's "UnknownError".
    name: code ?? "UnknownError",
    $fault: status >= 500 ? "server" : "client",
    $metadata: {
      httpStatusCode: status,
      requestId: typeof requestId === "string" ? requestId : undefined,
    },
    message: tag("Message") ?? `HTTP ${status}`,
  });
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(", ") : value;
  Object.defineProperty(error, "$response", {
    value: { statusCode: status, headers: flat },
    enumerable: false,
  });
  return Object.assign(error, {
    Region: tag("Region"),
    Endpoint: tag("Endpoint"),
    ServerTime: tag("ServerTime"),
  });
}
