import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSource } from "../../src/publish/source.ts";
import { generatedContent, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { useS3rver } from "../support/s3.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let content: string;
const s3 = useS3rver(["site"]);

beforeAll(async () => {
  root = await tempDir("catalogue-deploy-");
  content = await generatedContent(root.dir, { works: 60, domains: 2 });
});
afterAll(async () => {
  await root?.cleanup();
});

/** The real command line, as a user runs it. */
async function deploy(args: string[]) {
  return catalogue(["deploy", ...args], { env: s3.env });
}

async function bucket(prefix: string): Promise<Map<string, string>> {
  const page = await s3.client.send(
    new ListObjectsV2Command({ Bucket: "site", Prefix: `${prefix}/` }),
  );
  return new Map(
    (page.Contents ?? []).map((o) => [o.Key!.slice(prefix.length + 1), o.ETag!.replace(/"/g, "")]),
  );
}

describe("catalogue deploy", { timeout: 180_000 }, () => {
  const out = () => path.join(root.dir, "dist");
  const common = () => [
    "--content",
    content,
    "--out",
    out(),
    "--cache",
    path.join(root.dir, "cache"),
    "--no-site",
    "--to",
    "s3://site/prod",
    "--endpoint",
    s3.endpoint,
  ];

  it("builds and publishes in one process, then finds nothing to do in 1 + one request per domain", async () => {
    const first = await deploy([...common(), "--date", "2026-11-20"]);
    expect(first.stderr).toMatch(
      /^deployed 2026-11-20 to s3:\/\/site\/prod: (\d+) uploaded, 0 skipped, 0 deleted, [\d.]+ [kM]?B in [\d.]+ s \(\d+ requests\); built 2 domain\(s\), \d+ files, \d+ written in [\d.]+ s\n$/,
    );
    expect(first.code).toBe(0);
    const source = await readSource(out());
    await source.release();
    const held = await bucket("prod");
    expect([...held.keys()].filter((rel) => !rel.startsWith("_catalogue/records/")).sort()).toEqual(
      source.files.map((f) => f.path),
    );
    const again = await deploy([...common(), "--date", "2026-11-20"]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      `: 0 uploaded, ${source.files.length} skipped, 0 deleted, 0 B in `,
    );
    expect(again.stderr).toContain("(3 requests)");
    expect(again.stderr).toContain("(inputs unchanged)");
  });

  it("deploys the next day within the routine delete rule, changing what the date changes", async () => {
    const next = await deploy([...common(), "--date", "2026-11-21"]);
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/^deployed 2026-11-21 to s3:\/\/site\/prod: [1-9]\d* uploaded/);
    const source = await readSource(out());
    await source.release();
    expect(source.info.date).toBe("2026-11-21");
    const held = await bucket("prod");
    expect([...held.keys()].filter((rel) => !rel.startsWith("_catalogue/records/")).sort()).toEqual(
      source.files.map((f) => f.path),
    );
  });

  it("a failed build publishes nothing and keeps the output", async () => {
    const before = await bucket("prod");
    const link = await stat(out());
    const csv = path.join(content, "audiovisuals.csv");
    const original = await readFile(csv, "utf8");
    await writeFile(csv, original.replace(/\n(\d+),([^,]+),/, "\n$1,$2,Not A Slug,"));
    try {
      const failed = await deploy([...common(), "--date", "2026-11-22"]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/audiovisuals\.csv:\d+: /);
      expect(failed.stderr).toContain("nothing was written");
      expect(failed.stderr).not.toContain("    at ");
    } finally {
      await writeFile(csv, original);
    }
    expect(await bucket("prod")).toEqual(before);
    expect((await stat(out())).mtimeMs).toBe(link.mtimeMs);
  });

  it("--dry-run builds into --out, prints the plan and changes nothing at the target", async () => {
    const before = await bucket("prod");
    const dry = await deploy([...common(), "--date", "2026-11-23", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^upload {2}(new|changed) /m);
    expect(dry.stderr).toContain("dry run for s3://site/prod: would upload ");
    expect(await bucket("prod")).toEqual(before);
    const source = await readSource(out());
    await source.release();
    expect(source.info.date).toBe("2026-11-23");
  });

  it("a bad target stops before the build", async () => {
    const result = await deploy([
      "--content",
      content,
      "--out",
      path.join(root.dir, "never"),
      "--to",
      "gs://bucket/x",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "catalogue deploy: --to gs://bucket/x: unsupported scheme; use s3://, a folder or a .zip / .tar.gz file\n",
    );
    await expect(stat(path.join(root.dir, "never"))).rejects.toThrow();
  });
});
