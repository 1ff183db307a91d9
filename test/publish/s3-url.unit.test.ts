import { describe, expect, it } from "vitest";
import { parseS3Url } from "../../src/publish/targets/s3-url.ts";

describe("s3:// targets", () => {
  it("takes the bucket names S3 allows and any prefix of literal segments", () => {
    expect(parseS3Url("s3://site")).toEqual({ bucket: "site", prefix: "" });
    expect(parseS3Url("s3://site/")).toEqual({ bucket: "site", prefix: "" });
    expect(parseS3Url("s3://my.bucket-2/prod/")).toEqual({ bucket: "my.bucket-2", prefix: "prod" });
    expect(parseS3Url("s3://abc/a/b c+ü/.well/x..y")).toEqual({
      bucket: "abc",
      prefix: "a/b c+ü/.well/x..y",
    });
    expect(parseS3Url(`s3://${"a".repeat(63)}/p`).bucket).toHaveLength(63);
    // An S3 Express directory bucket's name is one too.
    expect(parseS3Url("s3://cat--use1-az4--x-s3/p").bucket).toBe("cat--use1-az4--x-s3");
  });

  it("refuses bucket names outside S3's rules, naming the rule", () => {
    const refused: [string, RegExp][] = [
      ["s3://", /expected s3:\/\/bucket/],
      ["s3:///prefix", /expected s3:\/\/bucket/],
      ["s3://ab/p", /2 characters: S3 bucket names have 3 to 63/],
      [`s3://${"a".repeat(64)}`, /64 characters/],
      ["s3://../etc", /3 to 63/],
      ["s3://.../etc", /begin and end with a letter or a digit/],
      ["s3://-bucket/p", /begin and end/],
      ["s3://bucket-/p", /begin and end/],
      ["s3://a..b/p", /two dots in a row/],
      ["s3://192.168.0.1/p", /IP address/],
      ["s3://My_Bucket/p", /lower-case letters, digits, dots and hyphens/],
      ["s3://bu%2e%2e/p", /lower-case letters/],
    ];
    for (const [url, message] of refused) expect(() => parseS3Url(url), url).toThrow(message);
  });

  it("refuses a prefix with an empty, . or .. segment", () => {
    for (const url of [
      "s3://bucket/../other",
      "s3://bucket/site/../../other",
      "s3://bucket/./site",
      "s3://bucket/site/./prod",
      "s3://bucket/site/..",
      "s3://bucket//site",
      "s3://bucket/a//b",
      "s3://bucket/a//",
    ])
      expect(() => parseS3Url(url), url).toThrow(/segment/);
  });
});
