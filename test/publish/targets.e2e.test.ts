import { MANIFEST_PATH } from "../../src/output/tree.ts";
import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { ArchiveFile } from "../../src/publish/offline/archive.ts";
import { DirectoryStore } from "../../src/publish/targets/directory.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import { mapLimit } from "../../src/util/concurrency.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { targetConformance, type Driver } from "./conformance.ts";
import { makeEditions, type Editions } from "./fixtures.ts";
import { useS3rver } from "../support/s3.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site"]);

beforeAll(async () => {
  root = await tempDir("catalogue-publish-");
  editions = await makeEditions(root.dir, 30);
});
afterAll(async () => {
  await root?.cleanup();
});

/** Every regular file under `dir`, by `/`-separated relative path. */
async function walk(dir: string): Promise<Map<string, { bytes: Buffer }>> {
  const found = new Map<string, { bytes: Buffer }>();
  for (const d of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!d.isFile()) continue;
    const abs = path.join(d.parentPath, d.name);
    found.set(path.relative(dir, abs).split(path.sep).join("/"), { bytes: await readFile(abs) });
  }
  return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
}

let cases = 0;

/** The publisher's records and leases: not files of the build. */
const bookkeeping = (rel: string) =>
  rel.startsWith("_catalogue/records/") || rel.startsWith("_catalogue/leases/");

describe("S3 target (s3rver on loopback)", () => {
  let prefix = "";
  const driver: Driver = {
    incremental: true,
    async open() {
      return new S3Store({
        url: `s3://site/${prefix}`,
        endpoint: s3.endpoint,
        env: s3.env,
        retry: { attempts: 2, baseMs: 10 },
      });
    },
    async next() {
      prefix = `case-${++cases}`;
    },
    async contents() {
      const c = s3.client;
      const found = new Map<
        string,
        {
          bytes: Buffer;
          headers: { contentType: string; cacheControl: string; contentDisposition?: string };
        }
      >();
      let token: string | undefined;
      const keys: string[] = [];
      do {
        const page = await c.send(
          new ListObjectsV2Command({
            Bucket: "site",
            Prefix: `${prefix}/`,
            ContinuationToken: token,
          }),
        );
        keys.push(...(page.Contents ?? []).map((o) => o.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      await mapLimit(keys.sort(), 16, async (key) => {
        const rel = key.slice(prefix.length + 1);
        if (bookkeeping(rel)) return;
        const object = await c.send(new GetObjectCommand({ Bucket: "site", Key: key }));
        const headers: { contentType: string; cacheControl: string; contentDisposition?: string } =
          {
            contentType: object.ContentType!,
            cacheControl: object.CacheControl!,
          };
        if (object.ContentDisposition !== undefined)
          headers.contentDisposition = object.ContentDisposition;
        found.set(rel, { bytes: Buffer.from(await object.Body!.transformToByteArray()), headers });
      });
      c.destroy();
      return new Map([...found].sort(([a], [b]) => (a < b ? -1 : 1)));
    },
  };
  targetConformance(
    () => driver,
    () => editions,
  );
});

describe("directory target", () => {
  let place = "";
  const driver: Driver = {
    incremental: true,
    async open() {
      return new DirectoryStore(place);
    },
    async next() {
      place = path.join(root.dir, `mirror-${++cases}`);
    },
    async contents() {
      const files = await walk(place);
      for (const rel of files.keys()) if (bookkeeping(rel)) files.delete(rel);
      return files;
    },
  };
  targetConformance(
    () => driver,
    () => editions,
  );
});

for (const format of ["zip", "tar.gz"] as const) {
  describe(`${format} archive target`, () => {
    let file = "";
    const driver: Driver = {
      incremental: false,
      async open() {
        return new ArchiveFile(file, format);
      },
      async next() {
        file = path.join(root.dir, `archives-${++cases}`, `site.${format}`);
      },
      async contents() {
        const unpacked = `${file}.unpacked`;
        await rm(unpacked, { recursive: true, force: true });
        await mkdir(unpacked, { recursive: true });
        // The system's own tools: what a user unpacks with.
        if (format === "zip") execFileSync("unzip", ["-q", file, "-d", unpacked]);
        else execFileSync("tar", ["-xzf", file, "-C", unpacked]);
        const files = await walk(unpacked);
        // The archive's own file list (checked in archive.test.ts), like the build's, is bookkeeping.
        files.delete(MANIFEST_PATH);
        // So is the root page an offline copy opens at (publish/offline/root-page.ts; these builds have no HTML to rewrite).
        expect(files.get("index.html")?.bytes.toString()).toMatch(
          /<li lang="\w+">Red de bibliotecas 1 <small>domain-1\.example<\/small><\/li>/,
        );
        files.delete("index.html");
        // No temporary file is ever left beside the archive.
        const beside = await readdir(path.dirname(file));
        if (beside.some((n) => n.endsWith(".tmp")))
          throw new Error(`temporary file left: ${beside.join(", ")}`);
        return files;
      },
    };
    targetConformance(
      () => driver,
      () => editions,
    );
  });
}
