import type { S3Client } from "@aws-sdk/client-s3";

/**
 * The signing clock of an S3 target. S3 refuses a request whose time is more than 15 minutes
 * from its own (RequestTimeTooSkewed), so requests are signed by the store's time: this
 * machine's plus an offset learnt from the `Date` of the store's answers. The offset is the
 * SDK's own (`config.systemClockOffset`, which its signer reads, and corrects from every answer
 * it receives), shared with the uploads sent around the SDK (s3-put.ts), which correct it the
 * same way from their error answers.
 */

type Retry = typeof import("@smithy/core/retry");
let rules: Retry | null = null;
/**
 * The SDK's own list of clock skew errors, loaded with the SDK (not with this module: a publish
 * that never reaches S3 does not load the SDK).
 */
export async function loadClockRules(): Promise<void> {
  rules ??= await import("@smithy/core/retry");
}

export const clockOffset = (client: S3Client): number => client.config.systemClockOffset ?? 0;

/** The time to sign a request with: the store's, as far as its answers told it. */
export const signingDate = (client: S3Client): Date => new Date(Date.now() + clockOffset(client));

/** Sets the offset from an answer's `Date` header, as the SDK's signer does with its own answers. */
export function setClockFrom(client: S3Client, date: string | undefined): void {
  const server = date === undefined ? NaN : Date.parse(date);
  if (!Number.isNaN(server)) client.config.systemClockOffset = server - Date.now();
}

interface Refusal {
  name?: string;
  message?: string;
}

/** An answer that may mean the request's time was wrong (the SDK's list, which includes SignatureDoesNotMatch). */
function isSkewError(error: unknown): boolean {
  if (rules === null) throw new Error("bug: isSkewError before loadClockRules");
  return (
    rules.isClockSkewError(error as Parameters<Retry["isClockSkewError"]>[0]) ||
    isTimeRefusal(error)
  );
}

/** An answer that says the request's time itself was refused (expired, in the future, too far off). */
export function isTimeRefusal(error: unknown): boolean {
  const e = error as Refusal;
  if (["RequestTimeTooSkewed", "RequestExpired", "RequestInTheFuture"].includes(e.name ?? ""))
    return true;
  return e.name === "InvalidSignatureException" && /signature expired/i.test(e.message ?? "");
}

/**
 * Whether signing again can help: the answer was a skew error and the clock moved (by its Date)
 * by more than a minute since the request was signed; a smaller move cannot bring a request
 * back within the store's 15 minutes. A store that refuses every time fails on the second try.
 */
export function skewCorrected(error: unknown, offsetBefore: number, client: S3Client): boolean {
  return isSkewError(error) && Math.abs(clockOffset(client) - offsetBefore) >= 60_000;
}

/** "3 h 0 min ahead", "20 min behind": how far this machine's clock is from the store's. */
export function describeOffset(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const span =
    minutes >= 60
      ? `${Math.floor(minutes / 60)} h ${minutes % 60} min`
      : minutes >= 1
        ? `${minutes} min`
        : `${Math.round(Math.abs(offsetMs) / 1000)} s`;
  // The offset is the store's time minus ours: positive means our clock is behind.
  return `${span} ${offsetMs > 0 ? "behind" : "ahead of"}`;
}
