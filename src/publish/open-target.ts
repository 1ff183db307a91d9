import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { ArchiveFile, archiveFormat } from "./offline/archive.ts";
import { DirectoryStore } from "./targets/directory.ts";
import type { RetryPolicy } from "./targets/retry.ts";
import { parseS3Url } from "./targets/s3-url.ts";
import type { Target } from "./targets/target.ts";

export interface TargetOptions {
  /** The build folder, which a target must neither be nor contain. */
  dir: string;
  endpoint?: string;
  env: NodeJS.ProcessEnv;
  retry?: RetryPolicy;
  /** Where a store's one-line notices go (S3: the region it found the bucket in). */
  notice?: (line: string) => void;
}

/** `s3://bucket/prefix`, a `.zip` / `.tar.gz` (`.tgz`) file, or else a folder. */
export async function openTarget(to: string, options: TargetOptions): Promise<Target> {
  if (to === "")
    throw new UserError("--to: give an s3://bucket/prefix, a folder, or a .zip / .tar.gz file");
  if (to.startsWith("s3://")) {
    if (options.endpoint !== undefined && !/^https?:\/\/[^/]+/.test(options.endpoint)) {
      throw new UserError(
        `--endpoint ${options.endpoint}: expected a URL like http://127.0.0.1:9000`,
      );
    }
    // The bucket and the prefix are checked before the SDK is loaded or a request is sent.
    parseS3Url(to);
    // The AWS SDK is large: it is loaded only when an S3 target is used.
    const { S3Store: S3Store } = await import("./targets/s3.ts");
    return new S3Store({
      url: to,
      endpoint: options.endpoint,
      env: options.env,
      retry: options.retry,
      notice: options.notice,
    });
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(to))
    throw new UserError(
      `--to ${to}: unsupported scheme; use s3://, a folder or a .zip / .tar.gz file`,
    );
  if (options.endpoint !== undefined)
    throw new UserError("--endpoint applies to s3:// targets only");
  const build = await realpath(options.dir).catch(() => path.resolve(options.dir));
  const dest = path.join(
    await realpath(path.dirname(path.resolve(to))).catch(() => path.dirname(path.resolve(to))),
    path.basename(to),
  );
  const overlaps = (b: string) =>
    dest === b || dest.startsWith(b + path.sep) || b.startsWith(dest + path.sep);
  if (overlaps(build) || overlaps(path.resolve(options.dir))) {
    throw new UserError(
      `--to ${to} is inside the build ${options.dir} or contains it: publish to a place of its own`,
    );
  }
  const format = archiveFormat(to);
  // An archive is renamed over its name once written: a folder there would fail only then.
  if (format !== null && (await stat(dest).catch(() => null))?.isDirectory())
    throw new UserError(
      `--to ${to} is a folder: an archive is written as a file; name a file that is not a folder (or remove the folder)`,
    );
  return format === null ? new DirectoryStore(to) : new ArchiveFile(to, format);
}
