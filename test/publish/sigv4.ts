import { createHash, createHmac } from "node:crypto";

/**
 * Signature Version 4 as AWS documents it, checked independently of the SDK's signer: what the
 * tests hold the SDK's requests and the direct uploads (src/publish/targets/s3-put.ts) to.
 */

export interface SignedRequest {
  method: string;
  /** The path and query as sent. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Authorization {
  accessKeyId: string;
  /** The credential scope's day (YYYYMMDD), region and service. */
  day: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** The parts of a SigV4 `Authorization` header; null when it is no such header. */
export function parseAuthorization(header: string | undefined): Authorization | null {
  const match = AUTH.exec(header ?? "");
  if (match === null) return null;
  const [, accessKeyId, day, region, service, signed, signature] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return { accessKeyId, day, region, service, signedHeaders: signed.split(";"), signature };
}

const header = (request: SignedRequest, name: string) => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
};

export function verifySigV4(request: SignedRequest, secret: string): boolean {
  const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
  const hmac = (key: string | Buffer, data: string) =>
    createHmac("sha256", key).update(data).digest();
  const auth = parseAuthorization(header(request, "authorization"));
  if (auth === null) return false;
  const payloadHash = header(request, "x-amz-content-sha256");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(request.body)) return false;
  const [pathPart, query = ""] = request.path.split("?") as [string, string?];
  const canonicalQuery = query
    .split("&")
    .filter(Boolean)
    .map((pair) => (pair.includes("=") ? pair : `${pair}=`))
    .sort()
    .join("&");
  const canonical = [
    request.method,
    pathPart,
    canonicalQuery,
    auth.signedHeaders
      .map((name) => `${name}:${header(request, name).trim().replace(/\s+/g, " ")}\n`)
      .join(""),
    auth.signedHeaders.join(";"),
    payloadHash,
  ].join("\n");
  const scope = `${auth.day}/${auth.region}/${auth.service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", header(request, "x-amz-date"), scope, sha256(canonical)].join(
    "\n",
  );
  const key = hmac(
    hmac(hmac(hmac(`AWS4${secret}`, auth.day), auth.region), auth.service),
    "aws4_request",
  );
  return createHmac("sha256", key).update(toSign).digest("hex") === auth.signature;
}
