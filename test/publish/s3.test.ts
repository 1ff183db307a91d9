import { execFile } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import { publish } from "../../src/publish/publish.ts";
import { S3Target, transient } from "../../src/publish/s3.ts";
import { recordPath } from "../../src/publish/records.ts";
import { CLI, ROOT, tempDir } from "../helpers/catalogue.ts";
import { makeEditions, publishedCount, readFiles, type Editions } from "./fixtures.ts";
import { s3Client, startS3rver, type S3rver } from "./s3rver.ts";

const exec = promisify(execFile);

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
let s3: S3rver;
let client: S3Client;

beforeAll(async () => {
  root = await tempDir("catalogue-s3-");
  [editions, s3] = await Promise.all([makeEditions(root.dir, 40), startS3rver(["site", "bare"])]);
  client = s3Client(s3.endpoint);
});
afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await root?.cleanup();
});

async function keys(bucket: string, prefix = ""): Promise<string[]> {
  const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined }));
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

/** Runs the real command line, as a user would. */
async function cli(args: string[], env: NodeJS.ProcessEnv = s3.env) {
  try {
    const { stdout, stderr } = await exec(process.execPath, [CLI, "publish", ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const target = (url: string, endpoint = s3.endpoint) => new S3Target({ url, endpoint, env: s3.env, retry: { attempts: 3, baseMs: 5 } });

// Each case starts the command line (a new process): slow on a busy machine.
describe("catalogue publish to S3 (command line)", { timeout: 180_000 }, () => {
  it("publishes, then finds nothing to do, with a one-line summary", async () => {
    const count = await publishedCount(editions.before);
    const first = await cli(["--to", "s3://site/cli", "--dir", editions.before, "--endpoint", s3.endpoint]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(new RegExp(`^published to s3://site/cli: ${count} uploaded, 0 skipped, 0 deleted, [\\d.]+ [kM]?B in [\\d.]+ s \\(\\d+ requests\\)\\n$`, "m"));
    expect(await keys("site", "cli/")).toHaveLength(count + 2); // and a record per domain
    const second = await cli(["--to", "s3://site/cli", "--dir", editions.before, "--endpoint", s3.endpoint]);
    // A no-change publish trusts the records: one listing of _catalogue/ and a read per domain's record.
    expect(second.stderr).toContain(`: 0 uploaded, ${count} skipped, 0 deleted, 0 B in `);
    expect(second.stderr).toContain("(3 requests)");
  });

  it("--dry-run prints every planned upload and changes nothing", async () => {
    const count = await publishedCount(editions.before);
    const result = await cli(["--to", "s3://site/dry", "--dir", editions.before, "--endpoint", s3.endpoint, "--dry-run"]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(count);
    expect(lines.every((l) => /^upload {2}new {6}\S+ {2}\(/.test(l))).toBe(true);
    // Media first, entry documents (build.json, first and last pages) after every other page.
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    expect(lines[0]).toMatch(/^upload {2}new {6}domain-1\.example\/media\//);
    expect(at(/ _catalogue\/build\.json /)).toBeGreaterThan(lines.findLastIndex((l) => l.includes("/_api/detail/")));
    expect(result.stderr).toContain(`would upload ${count} `);
    expect(await keys("site", "dry/")).toEqual([]);
  });

  it("--max-deletes stops before any change and says how to go on", async () => {
    await cli(["--to", "s3://site/guard", "--dir", editions.before, "--endpoint", s3.endpoint]);
    const before = await keys("site", "guard/");
    const result = await cli(["--to", "s3://site/guard", "--dir", editions.after, "--endpoint", s3.endpoint, "--max-deletes", "0"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `catalogue publish: publishing would delete ${editions.removed.length} files from s3://site/guard, more than --max-deletes 0; ` +
        `nothing was changed. Check --to and --dir (run with --dry-run to see the list), then run again with --max-deletes ${editions.removed.length} to allow it\n`,
    );
    expect(await keys("site", "guard/")).toEqual(before);
  });

  it("a missing bucket is a clear error, exit 1", async () => {
    const result = await cli(["--to", "s3://no-such-bucket/x", "--dir", editions.before, "--endpoint", s3.endpoint]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`catalogue publish: bucket no-such-bucket does not exist at ${s3.endpoint}: create it or correct --to\n`);
  });

  it("bad credentials are a clear error, exit 1", async () => {
    // s3rver checks the access key id (not version 4 signatures), so the bad key is the id.
    const result = await cli(["--to", "s3://site/x", "--dir", editions.before, "--endpoint", s3.endpoint], { ...s3.env, AWS_ACCESS_KEY_ID: "WRONG" });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^catalogue publish: s3:\/\/site\/x at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(InvalidAccessKeyId\): check AWS_ACCESS_KEY_ID/);
    expect(result.stderr).not.toContain("    at ");
  });

  it("an endpoint that is not S3 is a clear error, exit 1", async () => {
    const web = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<!doctype html><title>Welcome</title><p>Hello");
    });
    await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
    const endpoint = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    try {
      const result = await cli(["--to", "s3://site/x", "--dir", editions.before, "--endpoint", endpoint]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`catalogue publish: ${endpoint} did not answer as an S3 store does (HTTP 200 to list): check --endpoint\n`);
    } finally {
      await new Promise((resolve) => web.close(resolve));
    }
  });

  it("an unreachable endpoint is a clear error, exit 1", async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const result = await cli(["--to", "s3://site/x", "--dir", editions.before, "--endpoint", `http://127.0.0.1:${closed}`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`catalogue publish: cannot reach http://127.0.0.1:${closed} to list (ECONNREFUSED)`);
  });
});

describe("S3 target", () => {
  it("publishes at the bucket's root when the URL has no prefix", async () => {
    await publish({ dir: editions.before, target: target("s3://bare") });
    const files = Object.keys(await readFiles(editions.before)).filter((rel) => rel !== "_catalogue/inputs.json");
    expect(await keys("bare")).toEqual([...files, recordPath("domain-1.example"), recordPath("domain-2.example")].sort());
  });

  it("re-uploads a file whose recorded headers differ (a header-only change)", async () => {
    await publish({ dir: editions.before, target: target("s3://site/headers") });
    const key = `headers/${recordPath("domain-1.example")}`;
    const record = await (await client.send(new GetObjectCommand({ Bucket: "site", Key: key }))).Body!.transformToString();
    const rel = `domain-1.example/_api/detail/${editions.retitled.id}.json`;
    // As if the previous publish, by another version (whose inputs keys differ), had used other caching rules for this file.
    const edited = record.replace(/"inputs":"[^"]+"/, '"inputs":"an older version"').replace(new RegExp(`^(${rel.replace(/\./g, "\\.")}\t.*)public, max-age=300`, "m"), "$1no-store");
    expect(edited).not.toBe(record);
    await client.send(new PutObjectCommand({ Bucket: "site", Key: key, Body: edited }));
    const summary = await publish({ dir: editions.before, target: target("s3://site/headers") });
    expect(summary.plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([[rel, "headers"]]);
    const object = await client.send(new GetObjectCommand({ Bucket: "site", Key: `headers/${rel}` }));
    expect(object.CacheControl).toBe("public, max-age=300");
    expect(object.ContentType).toBe("application/json");
  });

  it("serves exports as downloads and media as immutable", async () => {
    await publish({ dir: editions.before, target: target("s3://site/kinds") });
    const exported = await client.send(new GetObjectCommand({ Bucket: "site", Key: "kinds/domain-1.example/_api/export/export_excel.xlsx" }));
    expect(exported.ContentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(exported.ContentDisposition).toBe('attachment; filename="export_excel-domain-1.example-2026-11-20.xlsx"');
    const media = (await keys("site", "kinds/domain-1.example/media/"))[0]!;
    const image = await client.send(new GetObjectCommand({ Bucket: "site", Key: media }));
    expect(image.ContentType).toBe("image/jpeg");
    expect(image.CacheControl).toBe("public, max-age=31536000, immutable");
  });

  describe("through a proxy that fails some requests", () => {
    let proxy: Server;
    let endpoint = "";
    /** Status to answer instead of forwarding, per PUT attempt of a build's file (undefined: forward). */
    let failPuts: (attempt: number) => number | undefined = () => undefined;
    let puts = 0;
    /** PUTs of the publisher's records and leases. */
    let bookkeeping = 0;
    beforeAll(async () => {
      const upstream = new URL(s3.endpoint);
      proxy = createServer((req, res) => {
        if (req.method === "PUT" && /\/_catalogue\/(records|leases)\//.test(req.url!)) bookkeeping++;
        else if (req.method === "PUT") {
          const status = failPuts(++puts);
          if (status !== undefined) {
            req.resume();
            res.writeHead(status, { "content-type": "application/xml" });
            res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${status === 400 ? "BadRequest" : "ServiceUnavailable"}</Code><Message>injected</Message></Error>`);
            return;
          }
        }
        const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        req.pipe(forward);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

    it("retries 5xx answers with backoff and succeeds", async () => {
      puts = 0;
      bookkeeping = 0;
      failPuts = (attempt) => (attempt <= 2 ? 503 : undefined);
      const t = target("s3://site/retry", endpoint);
      const summary = await publish({ dir: editions.before, target: t, concurrency: 1 });
      const count = await publishedCount(editions.before);
      expect(summary.uploaded).toBe(count);
      // Every file and the two refused attempts.
      expect(puts).toBe(count + 2);
      // The lease, and each domain's record before (updating) and after (complete).
      expect(bookkeeping).toBe(1 + 2 + 2);
      // Lists: _catalogue/, the whole (new) target, the leases, the records; the lease's release.
      expect(t.requests).toBe(4 + puts + bookkeeping + 1);
    });

    it("does not retry a 4xx answer", async () => {
      puts = 0;
      bookkeeping = 0;
      failPuts = (attempt) => (attempt === 2 ? 400 : undefined);
      const t = target("s3://site/no-retry", endpoint);
      const failure = publish({ dir: editions.before, target: t, concurrency: 1 });
      await expect(failure).rejects.toThrow(UserError);
      await expect(failure).rejects.toThrow(/could not upload .*BadRequest 400/);
      // One upload and the refused one; then the records of what was stored (updating), besides the lease and the first records.
      expect(puts).toBe(2);
      expect(bookkeeping).toBe(1 + 2 + 2);
    });
  });

  it("classifies failures: 5xx, 429 and dropped connections are transient, other 4xx are not", () => {
    expect(transient({ $metadata: { httpStatusCode: 500 } })).toBe(true);
    expect(transient({ $metadata: { httpStatusCode: 503 } })).toBe(true);
    expect(transient({ $metadata: { httpStatusCode: 429 } })).toBe(true);
    expect(transient({ $metadata: { httpStatusCode: 403 } })).toBe(false);
    expect(transient({ $metadata: { httpStatusCode: 404 } })).toBe(false);
    expect(transient({ code: "ECONNRESET" })).toBe(true);
    expect(transient(new Error("bug"))).toBe(false);
  });
});
