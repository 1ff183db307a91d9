import { readFileSync } from "node:fs";
import type { S3Client } from "@aws-sdk/client-s3";
import { UserError } from "../../errors.ts";
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from "./retry.ts";
import { clockOffset, loadClockRules, skewCorrected } from "./s3-clock.ts";
import { explainS3, transient } from "./s3-errors.ts";
import { directPut, sdkPut, type DirectPut, type PutObject } from "./s3-put.ts";
import { parseS3Url } from "./s3-url.ts";
import { endpointFor, namedRegion } from "./s3-region.ts";
import type { Listed, SourceFile, Store } from "./target.ts";

/**
 * An S3 bucket (or an S3-compatible store with `--endpoint`). Every object is stored with one
 * `PutObject`, so its ETag is the MD5 of its bytes and a listing says what changed without
 * downloading anything. Credentials and region come from the standard AWS environment; the
 * bucket's region, when S3 names another, and the store's clock are followed (s3-region.ts,
 * s3-clock.ts).
 */

type Sdk = typeof import("@aws-sdk/client-s3");
let sdk: Promise<Sdk> | null = null;
/**
 * The AWS SDK, loaded on first use rather than with this module: it is slow to load, which a
 * deploy spends while its build waits on its threads (`prepare`), not before the build.
 */
const loadSdk = () =>
  (sdk ??= Promise.all([import("@aws-sdk/client-s3"), loadClockRules()]).then(([s]) => s));

/** Failures after which the target changed what it signs with (region, clock): sent again at once. */
const corrected = new WeakSet<object>();
/** At most this many corrections for one request: the region once, the clock once, and a margin. */
const MAX_CORRECTIONS = 3;

export interface S3Options {
  /** `s3://bucket/prefix`. */
  url: string;
  endpoint?: string;
  env: NodeJS.ProcessEnv;
  retry?: RetryPolicy;
  /** A request that receives nothing for this long is abandoned and retried (default 60 s, or CATALOGUE_S3_TIMEOUT seconds). */
  timeoutMs?: number;
  /** Where the one line that says which region the bucket was found in goes (default: stderr). */
  notice?: (line: string) => void;
}

function requestTimeout(env: NodeJS.ProcessEnv): number {
  const seconds = Number(env.CATALOGUE_S3_TIMEOUT);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 60_000;
}

export class S3Store implements Store {
  readonly kind = "store";
  readonly name: string;
  requests = 0;
  private readonly bucket: string;
  private readonly prefix: string;
  /** --endpoint (moved to the bucket's region when it is AWS's own regional endpoint). */
  private endpoint: string | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly retry: RetryPolicy;
  private readonly timeoutMs: number;
  private readonly notice: (line: string) => void;
  private client: Promise<S3Client> | null = null;
  /** The region followed (named by S3 in a refusal), once one was. */
  private followed: string | undefined;
  /** The latest client made and the region it signs for: what `explain` tells of. */
  private current: { client: S3Client; region: string } | null = null;
  private direct: Promise<DirectPut | null> | null = null;
  /** The loaded SDK, once `connect` has run (what `explain` classifies errors with). */
  private sdk: Sdk | null = null;

  constructor(options: S3Options) {
    const { bucket, prefix } = parseS3Url(options.url);
    this.bucket = bucket;
    this.prefix = prefix;
    this.name = `s3://${bucket}/${prefix}`;
    this.endpoint = options.endpoint;
    this.env = options.env;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.timeoutMs = options.timeoutMs ?? requestTimeout(options.env);
    this.notice = options.notice ?? ((line) => process.stderr.write(`${line}\n`));
  }

  private key = (rel: string) => (this.prefix === "" ? rel : `${this.prefix}/${rel}`);
  private strip = (key: string) => (this.prefix === "" ? key : key.slice(this.prefix.length + 1));

  async list(prefix: string): Promise<Map<string, Listed>> {
    const files = new Map<string, Listed>();
    const full = this.key(prefix);
    let token: string | undefined;
    do {
      const page = await this.send("list", (c, s) =>
        c.send(
          new s.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: full === "" ? undefined : full,
            ContinuationToken: token,
          }),
        ),
      );
      this.expectS3(page.Name !== undefined || page.MaxKeys !== undefined, "list");
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        files.set(this.strip(object.Key), {
          size: object.Size ?? -1,
          md5: (object.ETag ?? "").replace(/"/g, ""),
          modified: object.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return files;
  }

  async top(): Promise<string[]> {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.send("list", (c, s) =>
        c.send(
          new s.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix === "" ? undefined : `${this.prefix}/`,
            Delimiter: "/",
            ContinuationToken: token,
          }),
        ),
      );
      for (const p of page.CommonPrefixes ?? [])
        if (p.Prefix !== undefined) names.push(this.strip(p.Prefix));
      for (const o of page.Contents ?? []) if (o.Key !== undefined) names.push(this.strip(o.Key));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return names.sort();
  }

  async get(rel: string, firstBytes?: number): Promise<Buffer | null> {
    const range = firstBytes === undefined ? undefined : `bytes=0-${firstBytes - 1}`;
    try {
      // The body is read inside the retried request: a connection dropped halfway through it
      // (ECONNRESET "aborted") is as transient as one dropped before the answer.
      return await this.send(
        `read ${rel}`,
        async (c, s) => {
          const object = await c.send(
            new s.GetObjectCommand({ Bucket: this.bucket, Key: this.key(rel), Range: range }),
          );
          return Buffer.from(await object.Body!.transformToByteArray());
        },
        true,
      );
    } catch (error) {
      if ((error as { name?: string }).name === "NoSuchKey") return null;
      throw error;
    }
  }

  async claimable(): Promise<void> {}

  async put(file: SourceFile): Promise<undefined> {
    // Bytes in memory, not a stream: a request can be retried as it is (files of a build are
    // small; the largest are spreadsheets of a few MB, and at most `concurrency` are held). Read
    // synchronously: for a small file, the promise of readFile costs more CPU than the read.
    const body = file.bytes ?? readFileSync(file.abs!);
    const object: PutObject = {
      key: this.key(file.path),
      body,
      // The store checks the bytes it received against the MD5 of the build (Content-MD5).
      md5: file.md5,
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      contentDisposition: file.contentDisposition,
    };
    const etag = await this.send(`upload ${file.path}`, async (client, sdk) => {
      const direct = await this.putter(client, sdk);
      return direct !== null ? direct.put(object) : sdkPut(client, sdk, this.bucket, object);
    });
    this.expectS3(etag !== "", `upload ${file.path}`);
    if (etag !== file.md5)
      throw new Error(
        `bug: ${this.name} stored ${file.path} with ETag ${etag}, expected the MD5 ${file.md5}`,
      );
    return undefined;
  }

  /**
   * Uploads go around the SDK's middleware (s3-put.ts), from its endpoint, credentials and
   * signer; null: a bucket signed otherwise, whose uploads the SDK sends.
   */
  private putter(client: S3Client, sdk: Sdk): Promise<DirectPut | null> {
    return (this.direct ??= directPut(client, sdk, this.bucket, this.timeoutMs).catch(
      (error: unknown) => {
        this.direct = null; // tried again by the next upload, and reported by this one
        throw error;
      },
    ));
  }

  async remove(paths: string[]): Promise<void> {
    // DeleteObjects takes at most 1,000 keys.
    for (let i = 0; i < paths.length; i += 1000) {
      const batch = paths.slice(i, i + 1000);
      const result = await this.send("delete", (c, s) =>
        c.send(
          new s.DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: batch.map((rel) => ({ Key: this.key(rel) })), Quiet: true },
          }),
        ),
      );
      const failed = result.Errors ?? [];
      if (failed.length > 0) {
        throw new UserError(
          `${this.name}: could not delete ${failed.length} object(s), first ${failed[0]!.Key}: ${failed[0]!.Code} ${failed[0]!.Message ?? ""}`,
        );
      }
    }
  }

  /** An answer that lacks what S3 always sends (a web page answered 200): a wrong --endpoint. */
  private expectS3(ok: boolean, action: string) {
    if (!ok)
      throw new UserError(
        `${this.endpoint ?? "S3"} did not answer as an S3 store does (HTTP 200 to ${action}): check --endpoint`,
      );
  }

  /**
   * One request, retried when transient; sent again at once after the target followed the
   * bucket's region or corrected its clock; failures become messages that say what to fix.
   */
  private async send<T>(
    action: string,
    request: (client: S3Client, sdk: Sdk) => Promise<T>,
    quiet = false,
  ): Promise<T> {
    for (let corrections = 0; ; corrections++) {
      try {
        return await withRetry(
          async () => {
            const client = await this.connect();
            const offset = clockOffset(client);
            this.requests++;
            try {
              return await request(client, this.sdk!);
            } catch (error) {
              throw await this.correct(error, client, offset);
            }
          },
          transient,
          this.retry,
        );
      } catch (error) {
        if (corrected.has(error as object) && corrections < MAX_CORRECTIONS) continue;
        if (quiet && (error as { name?: string }).name === "NoSuchKey") throw error;
        throw this.explain(error, action);
      }
    }
  }

  /**
   * After a refusal: follows the region S3 named for the bucket (a new client and signer for
   * every request from now on, said once), or notes that the clock the request was signed with
   * has been corrected from the answer (its ServerTime or Date); either marks the failure to be
   * sent again.
   */
  private async correct(error: unknown, client: S3Client, offsetBefore: number): Promise<unknown> {
    if (typeof error !== "object" || error === null) return error;
    const region = namedRegion(error);
    const signedFor = await client.config.region();
    if (region !== undefined && region !== signedFor) {
      // No await from the check to the switch: requests refused together switch once.
      if (this.followed !== region) {
        const endpoint = endpointFor(this.endpoint, region);
        const at = endpoint !== this.endpoint ? ` at ${endpoint}` : "";
        this.followed = region;
        this.endpoint = endpoint;
        this.client = this.makeClient(region, clockOffset(client));
        this.direct = null;
        this.notice(
          `${this.name}: the bucket is in region ${region}, not ${signedFor}: publishing there${at} (set AWS_REGION=${region} to go there directly)`,
        );
      }
      corrected.add(error);
    } else if (skewCorrected(error, offsetBefore, client)) {
      corrected.add(error);
    }
    return error;
  }

  /**
   * Loads the SDK and makes the client before the first request needs them (a deploy calls it
   * while its build waits); a failure here is left for that request to report.
   */
  async prepare(): Promise<void> {
    await this.connect().catch(() => {});
  }

  /** The client, made once (a request and `prepare` may ask at the same time). */
  private connect(): Promise<S3Client> {
    return (this.client ??= this.makeClient());
  }

  /** The client for the configured region, or for `region` (the bucket's, named by S3) with the clock learnt so far. */
  private async makeClient(region?: string, systemClockOffset?: number): Promise<S3Client> {
    const { S3Client } = (this.sdk = await loadSdk());
    const env = this.env;
    const credentials =
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? {
            accessKeyId: env.AWS_ACCESS_KEY_ID,
            secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
            sessionToken: env.AWS_SESSION_TOKEN,
          }
        : undefined; // the SDK's default chain: profiles, SSO, container and instance roles
    const make = (chosen?: string) =>
      new S3Client({
        region: chosen ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION,
        systemClockOffset,
        credentials,
        endpoint: this.endpoint,
        forcePathStyle: this.endpoint !== undefined,
        // Our own retries (withRetry) count and classify every attempt.
        maxAttempts: 1,
        // A stalled request (no byte for this long) fails and is retried like a dropped connection.
        requestHandler: {
          requestTimeout: this.timeoutMs,
          connectionTimeout: this.timeoutMs,
          throwOnRequestTimeout: true,
        },
        // Without these the SDK adds CRC32 checksums (trailers on streamed bodies) that some
        // S3-compatible stores keep as part of the object; Content-MD5 already checks every upload.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
    // The SDK warns on Node 20 about its own future releases: noise on every publish of a
    // program that supports Node 20 (package.json engines). Set the variable to "false" to see it.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
    let client = make(region);
    try {
      await client.config.region();
    } catch {
      // No region configured anywhere: S3-compatible stores ignore it, and AWS redirects.
      client = make("us-east-1");
    }
    this.current = { client, region: await client.config.region() };
    return client;
  }

  private explain(error: unknown, action: string): Error {
    return explainS3(error, action, {
      name: this.name,
      bucket: this.bucket,
      endpoint: this.endpoint,
      sdk: this.sdk,
      region: this.current?.region,
      clockOffset: this.current === null ? 0 : clockOffset(this.current.client),
    });
  }
}

export { transient };
