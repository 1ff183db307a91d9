import { UserError } from "../../errors.ts";
import { describeOffset, isTimeRefusal } from "./s3-clock.ts";
import { namedRegion } from "./s3-region.ts";

/**
 * What an S3 target's failures mean for the operator: one line each that names the cause (the
 * credentials, the bucket, its region, the clocks, the endpoint, the network) and what to fix;
 * and which failures are worth another attempt.
 */

type Sdk = typeof import("@aws-sdk/client-s3");

export interface S3Context {
  /** `s3://bucket/prefix`. */
  name: string;
  bucket: string;
  endpoint: string | undefined;
  /** The loaded SDK (null before the first request): what tells S3's answers from others. */
  sdk: Sdk | null;
  /** The region the requests were signed for, and the clock offset they were signed with. */
  region: string | undefined;
  clockOffset: number;
}

const oneLine = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

export function explainS3(error: unknown, action: string, context: S3Context): Error {
  if (error instanceof UserError) return error;
  const { name: target, bucket, endpoint, sdk } = context;
  const where = `${target}${endpoint ? ` at ${endpoint}` : ""}`;
  const e = error as {
    name?: string;
    message?: string;
    code?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = e.$metadata?.httpStatusCode;
  const name = e.name ?? "";
  const isServiceError = sdk !== null && error instanceof sdk.S3ServiceException;
  if (name === "CredentialsProviderError" || /Could not load credentials/i.test(e.message ?? "")) {
    return new UserError(
      `no AWS credentials for ${where}: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE (${oneLine(e.message)})`,
    );
  }
  if (name === "NoSuchBucket")
    return new UserError(
      `bucket ${bucket} does not exist at ${endpoint ?? "AWS"}: create it or correct --to`,
    );
  const said = `${name || status}: ${oneLine(e.message)}`;
  const region = namedRegion(error);
  if (region !== undefined) {
    // The target follows a region it is told; told the same again, it stops here.
    return new UserError(
      `${where} refused requests signed for ${region}, the region it names for bucket ${bucket} (${said}): check AWS_REGION and --endpoint`,
    );
  }
  if (name === "AuthorizationHeaderMalformed" || name === "PermanentRedirect" || status === 301) {
    return new UserError(
      `${where} refused requests signed for region ${context.region ?? "(none)"} without naming the bucket's (${said}): set AWS_REGION to the bucket's region`,
    );
  }
  if (isTimeRefusal(error)) {
    // Refused though signed by the store's own Date: the clocks are not this machine's problem alone.
    const offset = context.clockOffset;
    const told = error as {
      ServerTime?: unknown;
      $response?: { headers?: Record<string, string | undefined> };
    };
    if (told.ServerTime === undefined && told.$response?.headers?.date === undefined) {
      return new UserError(
        `${where} refused the time of the requests (${said}) and told no time of its own to set the clock by: set this machine's clock (NTP)`,
      );
    }
    const clocks =
      Math.abs(offset) < 60_000
        ? "this machine's clock agrees with the Date the store sends"
        : `they were signed by the store's Date (this machine's clock is ${describeOffset(offset)} it)`;
    return new UserError(
      `${where} refused the time of the requests (${said}) though ${clocks}: check the store's clock and any proxy in front of it`,
    );
  }
  if (
    [
      "InvalidAccessKeyId",
      "SignatureDoesNotMatch",
      "AccessDenied",
      "InvalidToken",
      "ExpiredToken",
    ].includes(name) ||
    status === 403
  ) {
    return new UserError(
      `${where} refused the credentials (${name || status}): check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) and the bucket's permissions`,
    );
  }
  if (status !== undefined && (status < 300 || !isServiceError || name === "UnknownError")) {
    // An answer the SDK could not read as S3's (a web page, another API): a wrong --endpoint.
    return new UserError(
      `${endpoint ?? "S3"} did not answer as an S3 store does (HTTP ${status} to ${action}): check --endpoint`,
    );
  }
  if (isServiceError || status !== undefined) {
    return new UserError(
      `${where}: could not ${action}: ${name} ${status ?? ""} ${oneLine(e.message)}`.trim(),
    );
  }
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) {
    return new UserError(
      `cannot reach ${endpoint ?? "S3"} to ${action} (${e.code}): check --endpoint and the network`,
    );
  }
  return error instanceof Error ? error : new Error(String(error));
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
]);

/** 5xx, throttling and dropped connections are worth another attempt; other 4xx are not. */
export function transient(error: unknown): boolean {
  const e = error as { code?: string; name?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500 || status === 429;
  if (e.code !== undefined && NETWORK_CODES.has(e.code)) return true;
  return e.name === "TimeoutError" || e.name === "RequestTimeout";
}
