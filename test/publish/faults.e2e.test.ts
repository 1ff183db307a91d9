import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.ts";
import { decodeRecord, RECORDS_FOLDER } from "../../src/publish/records/records.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import { readSource } from "../../src/publish/source.ts";
import { CLI, ROOT, tempDir } from "../helpers/catalogue.ts";
import { startFaultProxy, seeded, type FaultProxy } from "./fault-proxy.ts";
import { makeEditions, type Editions } from "./fixtures.ts";
import { BucketModel } from "./reachability.ts";
import { s3Client, startS3rver, type S3rver } from "../support/s3.ts";

/**
 * Publishing under faults, with nothing lost: a 1,500-work catalogue published and updated
 * through a proxy that fails, resets, slows and stalls requests, and updated again by a command
 * killed with SIGKILL at random moments. After every failure the records claim only objects the
 * bucket holds; a re-run converges to exactly the build; and in every state the bucket went
 * through, what a reader reaches from the entry documents is whole. The faults and the kill
 * moments come from one seed (FAULT_SEED), named in the tests' title, so that a failing run can
 * be repeated.
 */

const SEED = Number(process.env.FAULT_SEED ?? 20261123);
const PREFIX = "site";
let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
let s3: S3rver;
let proxy: FaultProxy;
let client: S3Client;
const stats = { runs: 0, failed: 0, kills: 0, recordChecks: 0, objectsChecked: 0 };

beforeAll(async () => {
  root = await tempDir("catalogue-faults-");
  [editions, s3] = await Promise.all([makeEditions(root.dir, 1500), startS3rver(["faults"])]);
  proxy = await startFaultProxy(s3.endpoint, SEED);
  client = s3Client(s3.endpoint);
}, 300_000);
afterAll(async () => {
  client?.destroy();
  await proxy?.stop();
  await s3?.stop();
  await root?.cleanup();
});

async function listBucket(): Promise<Map<string, { size: number; md5: string }>> {
  const found = new Map<string, { size: number; md5: string }>();
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({
        Bucket: "faults",
        Prefix: `${PREFIX}/`,
        ContinuationToken: token,
      }),
    );
    for (const o of page.Contents ?? [])
      found.set(o.Key!.slice(PREFIX.length + 1), { size: o.Size!, md5: o.ETag!.replace(/"/g, "") });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return found;
}

/** The records never claim an object the bucket lacks (or holds with other bytes). */
async function expectRecordsTrue() {
  const bucket = await listBucket();
  for (const rel of [...bucket.keys()].filter((r) => r.startsWith(RECORDS_FOLDER))) {
    const object = await client.send(
      new GetObjectCommand({ Bucket: "faults", Key: `${PREFIX}/${rel}` }),
    );
    const record = decodeRecord(Buffer.from(await object.Body!.transformToByteArray()));
    expect(record, rel).not.toBeNull();
    for (const [file, entry] of record!.files) {
      stats.recordChecks++;
      expect(bucket.get(file), `${rel} claims ${file}`).toEqual({
        size: entry.size,
        md5: entry.md5,
      });
    }
  }
}

/** The bucket holds exactly the build, byte for byte (by MD5), with the build's headers (a sample). */
async function expectExactly(out: string) {
  const source = await readSource(out);
  await source.release();
  const bucket = await listBucket();
  const held = [...bucket.keys()].filter(
    (rel) => !rel.startsWith("_catalogue/records/") && !rel.startsWith("_catalogue/leases/"),
  );
  expect(held.sort()).toEqual(source.files.map((f) => f.path));
  const random = seeded(SEED);
  for (const file of source.files) {
    const bytes = await readFile(file.abs!);
    const { createHash } = await import("node:crypto");
    expect(bucket.get(file.path)!.md5, file.path).toBe(
      createHash("md5").update(bytes).digest("hex"),
    );
    stats.objectsChecked++;
    if (random() < 0.02) {
      const head = await client.send(
        new HeadObjectCommand({ Bucket: "faults", Key: `${PREFIX}/${file.path}` }),
      );
      expect([head.ContentType, head.CacheControl], file.path).toEqual([
        file.contentType,
        file.cacheControl,
      ]);
    }
  }
  expect([...bucket.keys()].filter((rel) => rel.startsWith("_catalogue/leases/"))).toEqual([]);
}

/** Replays the writes the server accepted over the bucket's state before them, checking every state. */
async function expectReadersNeverStranded(startingFrom: string | null, firstWrite: number) {
  const model = new BucketModel();
  if (startingFrom !== null) {
    const source = await readSource(startingFrom);
    await source.release();
    for (const file of source.files) model.put(file.path, await readFile(file.abs!));
  }
  const writes = proxy.writes.slice(firstWrite);
  for (const write of writes) {
    const rel = write.key.slice(PREFIX.length + 1);
    if (write.op === "put") model.put(rel, write.body!);
    else model.delete(rel);
    model.check(`${write.op} ${rel}`);
  }
  expect(model.violations).toEqual([]);
  expect(model.checked).toBe(writes.length);
}

const target = () =>
  new S3Store({
    url: `s3://faults/${PREFIX}`,
    endpoint: proxy.endpoint,
    env: s3.env,
    retry: { attempts: 3, baseMs: 20 },
    timeoutMs: 1000,
  });

/** Publishes until a run succeeds, checking the records after each failed one. */
async function converge(out: string) {
  for (let attempt = 1; attempt <= 30; attempt++) {
    stats.runs++;
    try {
      return await publish({ dir: out, target: target(), lease: { contendMs: 200 } });
    } catch (error) {
      stats.failed++;
      if (
        !/could not|cannot reach|injected|socket|ECONNRESET|TimeoutError|timed out/i.test(
          String(error),
        )
      )
        throw error;
      await expectRecordsTrue();
    }
  }
  throw new Error("did not converge in 30 runs");
}

describe(`publishing under faults (FAULT_SEED=${SEED})`, { timeout: 900_000 }, () => {
  it("a first publish and an update converge through 500s, SlowDown, resets, slow and stalled requests", async () => {
    proxy.setRates({ error500: 0.04, slowDown: 0.04, reset: 0.03, slow: 0.05, stall: 0.004 });
    let mark = proxy.writes.length;
    await converge(editions.before);
    await expectRecordsTrue();
    await expectExactly(editions.before);
    await expectReadersNeverStranded(null, mark);

    mark = proxy.writes.length;
    const update = await converge(editions.after);
    expect(update.plan.deletes.length).toBeGreaterThan(0);
    await expectRecordsTrue();
    await expectExactly(editions.after);
    await expectReadersNeverStranded(editions.before, mark);
    expect(Object.values(proxy.injected).every((n) => n > 0)).toBe(true);
    // Not vacuous: the records and the readers' objects were read.
    expect(stats.recordChecks).toBeGreaterThan(0);
    expect(stats.objectsChecked).toBeGreaterThan(0);
  });

  it("an update killed with SIGKILL at random moments converges, and never strands a reader", async ({
    annotate,
  }) => {
    proxy.setRates({ error500: 0.01, slowDown: 0.01, reset: 0.01, slow: 0.02, stall: 0 });
    const mark = proxy.writes.length;
    const random = seeded(SEED + 1);
    // Back to the first edition: about as many writes as the update had.
    const expected = editions.changed.length + editions.removed.length;
    for (let kill = 0; kill < 5; kill++) {
      const at = proxy.writes.length + 1 + Math.floor(random() * expected * 0.8);
      const child = spawn(
        process.execPath,
        [
          CLI,
          "publish",
          "--to",
          `s3://faults/${PREFIX}`,
          "--dir",
          editions.before,
          "--endpoint",
          proxy.endpoint,
        ],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH, ...s3.env, CATALOGUE_S3_TIMEOUT: "1" },
          stdio: ["ignore", "ignore", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.once("exit", (code) => resolve(code)),
      );
      const watch = setInterval(() => {
        if (proxy.writes.length >= at) child.kill("SIGKILL");
      }, 2);
      const code = await exited;
      clearInterval(watch);
      stats.runs++;
      if (code === null) stats.kills++;
      else
        await annotate(
          `publish ${kill + 1} was not killed: exit ${code} after ${proxy.writes.length - (at - 1)} writes short of the mark: ${stderr.trim()}`,
        );
      await expectRecordsTrue();
    }
    expect(stats.kills).toBeGreaterThan(0);
    proxy.setRates({ error500: 0, slowDown: 0, reset: 0, slow: 0, stall: 0 });
    await converge(editions.before);
    await expectRecordsTrue();
    await expectExactly(editions.before);
    await expectReadersNeverStranded(editions.after, mark);
    // Converged: nothing more to do.
    expect((await publish({ dir: editions.before, target: target() })).uploaded).toBe(0);
  });
});
