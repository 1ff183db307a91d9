import { UserError } from "../../errors.ts";

/**
 * `s3://bucket/prefix`, checked before anything is sent. The bucket follows S3's naming rules for
 * general-purpose buckets (3 to 63 characters of `a-z 0-9 . -`, a letter or digit at each end, no
 * `..`, not an IPv4 address): a name outside them is no bucket S3 or a compatible store can hold,
 * and the SDK would put a name such as `..` into the request's path, where it is resolved (the
 * lease of `s3://../etc` went into bucket `etc`). The prefix's segments are taken literally as
 * key parts, so an empty one, `.` or `..` is refused too: stores and proxies that normalise paths
 * would write elsewhere than the keys listed afterwards. One trailing `/` is allowed
 * (`s3://bucket/prefix/`, as other tools write it).
 */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]*)(?:\/(.*))?$/.exec(url);
  if (match === null || match[1] === "")
    throw new UserError(`--to ${url}: expected s3://bucket or s3://bucket/prefix`);
  const bucket = match[1]!;
  const wrong = bucketProblem(bucket);
  if (wrong !== null) throw new UserError(`--to ${url}: the bucket name "${bucket}" ${wrong}`);
  const prefix = (match[2] ?? "").replace(/\/$/, "");
  if (prefix !== "") {
    const segment = prefix.split("/").find((s) => s === "" || s === "." || s === "..");
    if (segment !== undefined)
      throw new UserError(
        `--to ${url}: the key prefix "${prefix}" has ${segment === "" ? "an empty segment (//)" : `a "${segment}" segment`}; ` +
          "S3 keys are taken literally: write the prefix without it",
      );
  }
  return { bucket, prefix };
}

/** What breaks S3's naming rules for general-purpose buckets, or null. */
function bucketProblem(bucket: string): string | null {
  if (bucket.length < 3 || bucket.length > 63)
    return `has ${bucket.length} characters: S3 bucket names have 3 to 63`;
  if (!/^[a-z0-9.-]+$/.test(bucket))
    return "may hold only lower-case letters, digits, dots and hyphens (S3's bucket naming rules)";
  if (!/^[a-z0-9].*[a-z0-9]$/.test(bucket))
    return "must begin and end with a letter or a digit (S3's bucket naming rules)";
  if (bucket.includes("..")) return "has two dots in a row (S3's bucket naming rules)";
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(bucket))
    return "is an IP address, which S3 does not allow as a bucket name";
  return null;
}
