import { createHash } from "node:crypto";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { publish } from "../../src/publish/publish.ts";
import { directPut } from "../../src/publish/targets/s3-put.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { makeEditions, publishedCount, readFiles, type Editions } from "./fixtures.ts";
import { useS3rver } from "../support/s3.ts";

// As for a bucket that s3-put.ts cannot sign (an S3 Express directory bucket, a multi-region
// access point): no direct uploads, so every upload goes through the SDK's PutObject.
vi.mock("../../src/publish/targets/s3-put.ts", async (original) => ({
  ...(await original<typeof import("../../src/publish/targets/s3-put.ts")>()),
  directPut: vi.fn(async () => null),
}));

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site"]);

beforeAll(async () => {
  root = await tempDir("catalogue-s3-sdk-");
  editions = await makeEditions(root.dir, 30);
});
afterAll(async () => {
  await root?.cleanup();
});

describe("uploads of a bucket signed otherwise than with Signature V4", () => {
  it("go through the SDK, with the same objects, bytes and headers", async () => {
    const target = new S3Store({ url: "s3://site/sdk", endpoint: s3.endpoint, env: s3.env });
    const summary = await publish({ dir: editions.before, target });
    expect(vi.mocked(directPut)).toHaveBeenCalled();
    const count = await publishedCount(editions.before);
    expect(summary.uploaded).toBe(count);
    const listed = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "site", Prefix: "sdk/" }),
    );
    expect(listed.KeyCount).toBe(count + 2); // and a record per domain
    const files = await readFiles(editions.before);
    const rel = "domain-1.example/_api/export/export_excel.xlsx";
    const exported = await s3.client.send(
      new GetObjectCommand({ Bucket: "site", Key: `sdk/${rel}` }),
    );
    const bytes = Buffer.from(await exported.Body!.transformToByteArray());
    expect(createHash("md5").update(bytes).digest("hex")).toBe(files[rel]!.md5);
    expect(exported.ContentDisposition).toBe(
      'attachment; filename="export_excel-domain-1.example-2026-11-20.xlsx"',
    );
    // A second publish finds nothing to do: the SDK's ETags are the build's MD5s.
    expect(
      (
        await publish({
          dir: editions.before,
          target: new S3Store({ url: "s3://site/sdk", endpoint: s3.endpoint, env: s3.env }),
        })
      ).uploaded,
    ).toBe(0);
  });
});
