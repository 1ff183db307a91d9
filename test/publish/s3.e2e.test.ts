import { createHash } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import { publish } from "../../src/publish/publish.ts";
import { S3Store, transient } from "../../src/publish/targets/s3.ts";
import { recordPath } from "../../src/publish/records/records.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { makeEditions, publishedCount, readFiles, type Editions } from "./fixtures.ts";
import { s3Client, useS3rver } from "../support/s3.ts";
import { verifySigV4 } from "./sigv4.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site", "bare"]);

beforeAll(async () => {
  root = await tempDir("catalogue-s3-");
  editions = await makeEditions(root.dir, 40);
});
afterAll(async () => {
  await root?.cleanup();
});

async function keys(bucket: string, prefix = ""): Promise<string[]> {
  const page = await s3.client.send(
    new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined }),
  );
  return (page.Contents ?? []).map((o) => o.Key!).sort();
}

/** Runs the real command line, as a user would. */
async function cli(args: string[], env: NodeJS.ProcessEnv = s3.env) {
  return catalogue(["publish", ...args], { env });
}

const target = (url: string, endpoint = s3.endpoint) =>
  new S3Store({ url, endpoint, env: s3.env, retry: { attempts: 3, baseMs: 5 } });

// Each case starts the command line (a new process): slow on a busy machine.
describe("catalogue publish to S3 (command line)", { timeout: 180_000 }, () => {
  it("publishes, then finds nothing to do, with a one-line summary", async () => {
    const count = await publishedCount(editions.before);
    const first = await cli([
      "--to",
      "s3://site/cli",
      "--dir",
      editions.before,
      "--endpoint",
      s3.endpoint,
    ]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      new RegExp(
        `^published to s3://site/cli: ${count} uploaded, 0 skipped, 0 deleted, [\\d.]+ [kM]?B in [\\d.]+ s \\(\\d+ requests\\)\\n$`,
        "m",
      ),
    );
    expect(await keys("site", "cli/")).toHaveLength(count + 2); // and a record per domain
    const second = await cli([
      "--to",
      "s3://site/cli",
      "--dir",
      editions.before,
      "--endpoint",
      s3.endpoint,
    ]);
    // A no-change publish trusts the records: one listing of _catalogue/ and a read per domain's record.
    expect(second.stderr).toContain(`: 0 uploaded, ${count} skipped, 0 deleted, 0 B in `);
    expect(second.stderr).toContain("(3 requests)");
  });

  it("--dry-run prints every planned upload and changes nothing", async () => {
    const count = await publishedCount(editions.before);
    const result = await cli([
      "--to",
      "s3://site/dry",
      "--dir",
      editions.before,
      "--endpoint",
      s3.endpoint,
      "--dry-run",
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines).toHaveLength(count);
    expect(lines.every((l) => /^upload {2}new {6}\S+ {2}\(/.test(l))).toBe(true);
    // Media first, entry documents (build.json, first and last pages) after every other page.
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    expect(lines[0]).toMatch(/^upload {2}new {6}domain-1\.example\/media\//);
    expect(at(/ _catalogue\/build\.json /)).toBeGreaterThan(
      lines.findLastIndex((l) => l.includes("/_api/detail/")),
    );
    expect(result.stderr).toContain(`would upload ${count} `);
    expect(await keys("site", "dry/")).toEqual([]);
  });

  it("--max-deletes stops before any change and says how to go on", async () => {
    await cli(["--to", "s3://site/guard", "--dir", editions.before, "--endpoint", s3.endpoint]);
    const before = await keys("site", "guard/");
    const result = await cli([
      "--to",
      "s3://site/guard",
      "--dir",
      editions.after,
      "--endpoint",
      s3.endpoint,
      "--max-deletes",
      "0",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `catalogue publish: publishing would delete ${editions.removed.length} files from s3://site/guard, more than --max-deletes 0; ` +
        `nothing was changed. Check --to and --dir (run with --dry-run to see the list), then run again with --max-deletes ${editions.removed.length} to allow it\n`,
    );
    expect(await keys("site", "guard/")).toEqual(before);
  });

  it("a missing bucket is a clear error, exit 1", async () => {
    const result = await cli([
      "--to",
      "s3://no-such-bucket/x",
      "--dir",
      editions.before,
      "--endpoint",
      s3.endpoint,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `catalogue publish: bucket no-such-bucket does not exist at ${s3.endpoint}: create it or correct --to\n`,
    );
  });

  it("bad credentials are a clear error, exit 1", async () => {
    // s3rver checks the access key id (not version 4 signatures), so the bad key is the id.
    const result = await cli(
      ["--to", "s3://site/x", "--dir", editions.before, "--endpoint", s3.endpoint],
      { ...s3.env, AWS_ACCESS_KEY_ID: "WRONG" },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^catalogue publish: s3:\/\/site\/x at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(InvalidAccessKeyId\): check AWS_ACCESS_KEY_ID/,
    );
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
      const result = await cli([
        "--to",
        "s3://site/x",
        "--dir",
        editions.before,
        "--endpoint",
        endpoint,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `catalogue publish: ${endpoint} did not answer as an S3 store does (HTTP 200 to list): check --endpoint\n`,
      );
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
    const result = await cli([
      "--to",
      "s3://site/x",
      "--dir",
      editions.before,
      "--endpoint",
      `http://127.0.0.1:${closed}`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `catalogue publish: cannot reach http://127.0.0.1:${closed} to list (ECONNREFUSED)`,
    );
  });
});

describe("S3 target", () => {
  it("publishes at the bucket's root when the URL has no prefix", async () => {
    await publish({ dir: editions.before, target: target("s3://bare") });
    const files = Object.keys(await readFiles(editions.before)).filter(
      (rel) => rel !== "_catalogue/inputs.json",
    );
    expect(await keys("bare")).toEqual(
      [...files, recordPath("domain-1.example"), recordPath("domain-2.example")].sort(),
    );
  });

  it("re-uploads a file whose recorded headers differ (a header-only change)", async () => {
    await publish({ dir: editions.before, target: target("s3://site/headers") });
    const key = `headers/${recordPath("domain-1.example")}`;
    const record = await (
      await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: key }))
    ).Body!.transformToString();
    const rel = `domain-1.example/_api/detail/${editions.retitled.id}.json`;
    // As if the previous publish, by another version (whose inputs keys differ), had used other caching rules for this file.
    const edited = record
      .replace(/"inputs":"[^"]+"/, '"inputs":"an older version"')
      .replace(
        new RegExp(`^(${rel.replace(/\./g, "\\.")}\t.*)public, max-age=300`, "m"),
        "$1no-store",
      );
    expect(edited).not.toBe(record);
    await s3.client.send(new PutObjectCommand({ Bucket: "site", Key: key, Body: edited }));
    const summary = await publish({ dir: editions.before, target: target("s3://site/headers") });
    expect(summary.plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([[rel, "headers"]]);
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: "site", Key: `headers/${rel}` }),
    );
    expect(object.CacheControl).toBe("public, max-age=300");
    expect(object.ContentType).toBe("application/json");
  });

  it("serves exports as downloads and media as immutable", async () => {
    await publish({ dir: editions.before, target: target("s3://site/kinds") });
    const exported = await s3.client.send(
      new GetObjectCommand({
        Bucket: "site",
        Key: "kinds/domain-1.example/_api/export/export_excel.xlsx",
      }),
    );
    expect(exported.ContentType).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(exported.ContentDisposition).toBe(
      'attachment; filename="export_excel-domain-1.example-2026-11-20.xlsx"',
    );
    const media = (await keys("site", "kinds/domain-1.example/media/"))[0]!;
    const image = await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: media }));
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
        if (req.method === "PUT" && /\/_catalogue\/(records|leases)\//.test(req.url!))
          bookkeeping++;
        else if (req.method === "PUT") {
          const status = failPuts(++puts);
          if (status !== undefined) {
            req.resume();
            res.writeHead(status, { "content-type": "application/xml" });
            res.end(
              `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${status === 400 ? "BadRequest" : "ServiceUnavailable"}</Code><Message>injected</Message></Error>`,
            );
            return;
          }
        }
        const forward = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(res);
          },
        );
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

  describe("reads through a proxy that drops connections halfway through an answer", () => {
    let proxy: Server;
    let endpoint = "";
    /** GETs to cut after half their body, counted down. */
    let cutGets = 0;
    let gets = 0;
    beforeAll(async () => {
      const upstream = new URL(s3.endpoint);
      proxy = createServer((req, res) => {
        const cut = req.method === "GET" && !req.url!.includes("list-type") && cutGets > 0;
        if (req.method === "GET") gets++;
        if (cut) cutGets--;
        const forward = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: req.method,
            path: req.url,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers);
            if (!cut) return answer.pipe(res);
            const chunks: Buffer[] = [];
            answer.on("data", (c: Buffer) => chunks.push(c));
            answer.on("end", () => {
              // The whole length announced, half the bytes sent, then the connection closed.
              const body = Buffer.concat(chunks);
              res.write(body.subarray(0, body.length >> 1), () => res.socket!.destroy());
            });
          },
        );
        req.pipe(forward);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      await s3.client.send(
        new PutObjectCommand({
          Bucket: "site",
          Key: "cut/object.json",
          Body: JSON.stringify({ text: "x".repeat(200_000) }),
        }),
      );
    });
    afterAll(
      () =>
        new Promise<void>((resolve) => {
          proxy.closeAllConnections();
          proxy.close(() => resolve());
        }),
    );

    it("reads the whole object again when its answer was cut (a transient failure, retried)", async () => {
      cutGets = 2;
      gets = 0;
      const bytes = await target("s3://site/cut", endpoint).get("object.json");
      expect(JSON.parse(bytes!.toString()).text).toHaveLength(200_000);
      expect(gets).toBe(3);
    });

    it("says the store cannot be reached when every answer is cut: a user's error, not a bug", async () => {
      cutGets = 10;
      gets = 0;
      const failure = target("s3://site/cut", endpoint).get("object.json");
      await expect(failure).rejects.toThrow(UserError);
      await expect(failure).rejects.toThrow(/cannot reach .* to read object\.json \(ECONNRESET\)/);
      // The target's three attempts.
      expect(gets).toBe(3);
      cutGets = 0;
    });
  });

  describe("uploads (sent around the SDK's middleware, src/publish/targets/s3-put.ts)", () => {
    const object = (rel: string, text: string) => {
      const bytes = Buffer.from(text);
      return {
        path: rel,
        size: bytes.length,
        md5: createHash("md5").update(bytes).digest("hex"),
        abs: null,
        bytes,
        contentType: "application/json",
        cacheControl: "no-store",
      };
    };

    it("stores keys that need escaping under a prefix that needs it too, as the SDK reads them", async () => {
      const names = [
        "a b/c d.json",
        "ñandú/café €.json",
        "plus+sign/x.json",
        "odd!'()*~.json",
        "per%20cent/x.json",
        "semi;colon=eq&at@.json",
        "日本/映画.json",
      ];
      const t = target("s3://site/escaped prefix+ü");
      for (const [i, name] of names.entries()) await t.put(object(name, `{"n":${i}}`));
      expect(await keys("site", "escaped prefix+ü/")).toEqual(
        names.map((n) => `escaped prefix+ü/${n}`).sort(),
      );
      for (const [i, name] of names.entries()) {
        const stored = await s3.client.send(
          new GetObjectCommand({ Bucket: "site", Key: `escaped prefix+ü/${name}` }),
        );
        expect(await stored.Body!.transformToString()).toBe(`{"n":${i}}`);
        expect([stored.ContentType, stored.CacheControl]).toEqual(["application/json", "no-store"]);
      }
    });

    it("signs uploads as Signature Version 4 requires, checked as the SDK's own requests are (s3rver does not check them)", async () => {
      const seen: {
        method: string;
        path: string;
        headers: Record<string, string>;
        body: Buffer;
      }[] = [];
      const capture = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", () => {
          const body = Buffer.concat(chunks);
          seen.push({
            method: req.method!,
            path: req.url!,
            headers: req.headers as Record<string, string>,
            body,
          });
          res.writeHead(200, { etag: `"${createHash("md5").update(body).digest("hex")}"` }).end();
        });
      });
      await new Promise<void>((resolve) => capture.listen(0, "127.0.0.1", resolve));
      const endpoint = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
      const rel = "ñandú/a b+c!'(1).json";
      const secret = "S3RVER";
      try {
        const sdkClient = s3Client(endpoint);
        const file = object(rel, '{"a":1}');
        await sdkClient.send(
          new PutObjectCommand({
            Bucket: "site",
            Key: `p/${rel}`,
            Body: file.bytes,
            ContentMD5: Buffer.from(file.md5, "hex").toString("base64"),
            ContentType: "application/json",
          }),
        );
        sdkClient.destroy();
        await new S3Store({
          url: "s3://site/p",
          endpoint,
          env: { ...s3.env, AWS_SESSION_TOKEN: "a-session-token" },
        }).put(file);
      } finally {
        capture.closeAllConnections();
        await new Promise((resolve) => capture.close(resolve));
      }
      expect(seen).toHaveLength(2);
      const [bySdk, ours] = seen as [(typeof seen)[0], (typeof seen)[0]];
      // The same path (the key escaped as the SDK escapes it), body and content headers.
      expect(ours.path).toBe(bySdk.path.replace("?x-id=PutObject", ""));
      expect(ours.body.equals(bySdk.body)).toBe(true);
      expect([ours.headers["content-md5"], ours.headers["content-type"]]).toEqual([
        bySdk.headers["content-md5"],
        bySdk.headers["content-type"],
      ]);
      // The check below accepts the SDK's request, and ours, whose token it signs too.
      for (const request of [bySdk, ours]) expect(verifySigV4(request, secret)).toBe(true);
      expect(ours.headers["x-amz-security-token"]).toBe("a-session-token");
      expect(signedHeaders(ours)).toEqual(
        expect.arrayContaining([
          "content-md5",
          "content-type",
          "host",
          "x-amz-content-sha256",
          "x-amz-date",
          "x-amz-security-token",
        ]),
      );
      // And refuses a request changed after signing.
      expect(
        verifySigV4({ ...ours, headers: { ...ours.headers, "content-type": "text/html" } }, secret),
      ).toBe(false);
      expect(verifySigV4({ ...ours, path: ours.path.replace("a%20b", "a%20c") }, secret)).toBe(
        false,
      );
    });

    it("are left to the SDK for buckets signed otherwise (S3 Express session auth, SigV4a)", async () => {
      const { directPut } = await import("../../src/publish/targets/s3-put.ts");
      const sdk = await import("@aws-sdk/client-s3");
      const aws = new S3Client({
        region: "us-east-1",
        credentials: { accessKeyId: "a", secretAccessKey: "b" },
      });
      try {
        expect(await directPut(aws, sdk, "catalogue-site", 1000)).not.toBeNull();
        expect(
          await directPut(aws, sdk, "arn:aws:s3:us-west-2:123456789012:accesspoint/site", 1000),
        ).not.toBeNull();
        expect(await directPut(aws, sdk, "site--use1-az4--x-s3", 1000)).toBeNull();
        expect(
          await directPut(
            aws,
            sdk,
            "arn:aws:s3::123456789012:accesspoint/mfzwi23gnjvgw.mrap",
            1000,
          ),
        ).toBeNull();
      } finally {
        aws.destroy();
      }
    });

    /** A server that answers PUTs with `answer(attempt)` (and whatever a request needs besides). */
    async function withServer(
      answer: (attempt: number, res: import("node:http").ServerResponse) => void,
      test: (endpoint: string) => Promise<void>,
    ) {
      let attempt = 0;
      const server = createServer((req, res) => {
        req.resume();
        req.on("end", () => answer(++attempt, res));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        await test(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }

    it("an answer without an S3 error document, or a 200 without an ETag, means a wrong endpoint", async () => {
      await withServer(
        (_attempt, res) =>
          res
            .writeHead(404, { "content-type": "text/html" })
            .end("<!doctype html><title>Not found</title>"),
        async (endpoint) => {
          await expect(target("s3://site/x", endpoint).put(object("a.json", "{}"))).rejects.toThrow(
            `${endpoint} did not answer as an S3 store does (HTTP 404 to upload a.json): check --endpoint`,
          );
        },
      );
      await withServer(
        (_attempt, res) =>
          res
            .writeHead(200, { "content-type": "text/html" })
            .end("<!doctype html><title>Welcome</title>"),
        async (endpoint) => {
          await expect(target("s3://site/x", endpoint).put(object("a.json", "{}"))).rejects.toThrow(
            `${endpoint} did not answer as an S3 store does (HTTP 200 to upload a.json): check --endpoint`,
          );
        },
      );
    });

    it("retries a stalled upload and SlowDown answers, then succeeds", async () => {
      const file = object("a.json", "{}");
      await withServer(
        (attempt, res) => {
          if (attempt === 1) return; // never answers
          if (attempt === 2) {
            res
              .writeHead(503, { "content-type": "application/xml" })
              .end(
                "<Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>",
              );
            return;
          }
          res.writeHead(200, { etag: `"${file.md5}"` }).end();
        },
        async (endpoint) => {
          const t = new S3Store({
            url: "s3://site/x",
            endpoint,
            env: s3.env,
            retry: { attempts: 3, baseMs: 5 },
            timeoutMs: 300,
          });
          await t.put(file);
          expect(t.requests).toBe(3);
        },
      );
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

const signedHeaders = (request: { headers: Record<string, string> }) =>
  /SignedHeaders=([^,]+)/.exec(request.headers.authorization ?? "")![1]!.split(";");
