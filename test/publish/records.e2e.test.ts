import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  decodeRecord,
  encodeRecord,
  RECORD_HEAD_BYTES,
  recordPath,
  type DomainRecord,
} from "../../src/publish/records/records.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import type { Store } from "../../src/publish/targets/target.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { expectHolds, type Driver } from "./conformance.ts";
import { makeEditions, type Editions } from "./fixtures.ts";
import { useS3rver } from "../support/s3.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site"]);

beforeAll(async () => {
  root = await tempDir("catalogue-records-");
  editions = await makeEditions(root.dir, 40);
});
afterAll(async () => {
  await root?.cleanup();
});

/** An S3 target whose listings are noted: which prefixes a publish had to list. */
function spied(prefix: string): Store & { listed: string[] } {
  const target = new S3Store({
    url: `s3://site/${prefix}`,
    endpoint: s3.endpoint,
    env: s3.env,
    retry: { attempts: 2, baseMs: 5 },
  });
  const listed: string[] = [];
  const list = target.list.bind(target);
  return Object.assign(target, {
    listed,
    list: (p: string) => {
      listed.push(p);
      return list(p);
    },
  });
}

/** What a prefix of the bucket holds, records and leases aside, as the conformance suite reads it. */
function driverOf(prefix: string): Driver {
  return {
    incremental: true,
    open: async () => spied(prefix),
    next: async () => {},
    async contents() {
      const found = new Map<
        string,
        {
          bytes: Buffer;
          headers: { contentType: string; cacheControl: string; contentDisposition?: string };
        }
      >();
      const page = await s3.client.send(
        new ListObjectsV2Command({ Bucket: "site", Prefix: `${prefix}/` }),
      );
      for (const o of page.Contents ?? []) {
        const rel = o.Key!.slice(prefix.length + 1);
        if (rel.startsWith("_catalogue/records/") || rel.startsWith("_catalogue/leases/")) continue;
        const object = await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: o.Key! }));
        const headers: { contentType: string; cacheControl: string; contentDisposition?: string } =
          { contentType: object.ContentType!, cacheControl: object.CacheControl! };
        if (object.ContentDisposition !== undefined)
          headers.contentDisposition = object.ContentDisposition;
        found.set(rel, { bytes: Buffer.from(await object.Body!.transformToByteArray()), headers });
      }
      return found;
    },
  };
}

const BOOKKEEPING = ["_catalogue/", "_catalogue/leases/", "_catalogue/records/"];

describe("records", { timeout: 120_000 }, () => {
  it("a publish after a complete one lists no folder of the site: the records say what the target holds", async () => {
    await publish({ dir: editions.before, target: spied("trust") });
    const target = spied("trust");
    const summary = await publish({ dir: editions.after, target });
    expect(summary.plan.uploads.map((u) => u.file.path).sort()).toEqual(editions.changed);
    expect(summary.plan.deletes).toEqual(editions.removed);
    expect(
      target.listed.every((p) => BOOKKEEPING.includes(p)),
      target.listed.join(", "),
    ).toBe(true);
    await expectHolds(driverOf("trust"), editions.after);
    const record = decodeRecord(
      Buffer.from(
        await (
          await s3.client.send(
            new GetObjectCommand({
              Bucket: "site",
              Key: `trust/${recordPath("domain-1.example")}`,
            }),
          )
        ).Body!.transformToByteArray(),
      ),
    );
    expect(record?.state).toBe("complete");
    expect(record?.pending.size).toBe(0);
    expect([...record!.files.keys()].every((rel) => rel.startsWith("domain-1.example/"))).toBe(
      true,
    );
  });

  it("lists only the domain whose record a killed run left updating", async () => {
    await publish({ dir: editions.before, target: spied("updating") });
    const key = `updating/${recordPath("domain-1.example")}`;
    const text = await (
      await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: key }))
    ).Body!.transformToString();
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: key,
        Body: text.replace('"state":"complete"', '"state":"updating"'),
      }),
    );
    const target = spied("updating");
    await publish({ dir: editions.after, target });
    expect(target.listed).toContain("domain-1.example/");
    expect(target.listed).not.toContain("domain-2.example/");
    await expectHolds(driverOf("updating"), editions.after);
  });

  it("--verify repairs what changed behind the publisher's back; a plain publish trusts the records", async () => {
    await publish({ dir: editions.before, target: spied("verify") });
    const missing = `domain-1.example/_api/detail/${editions.retitled.id}.json`;
    const tampered = "domain-2.example/_api/list/plain/default/1.json";
    await s3.client.send(new DeleteObjectCommand({ Bucket: "site", Key: `verify/${missing}` }));
    await s3.client.send(
      new PutObjectCommand({ Bucket: "site", Key: `verify/${tampered}`, Body: "{}" }),
    );
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: "verify/domain-1.example/_api/detail/stray.json",
        Body: "{}",
      }),
    );
    await s3.client.send(
      new PutObjectCommand({ Bucket: "site", Key: "verify/stray.txt", Body: "?" }),
    );
    expect((await publish({ dir: editions.before, target: spied("verify") })).uploaded).toBe(0);
    const target = spied("verify");
    const summary = await publish({ dir: editions.before, target, verify: true });
    expect(summary.plan.uploads.map((u) => [u.file.path, u.reason]).sort()).toEqual([
      [missing, "new"],
      [tampered, "changed"],
    ]);
    expect(summary.plan.deletes).toEqual(["domain-1.example/_api/detail/stray.json", "stray.txt"]);
    // One listing per top-level folder, besides the bookkeeping.
    expect(target.listed.filter((p) => !BOOKKEEPING.includes(p)).sort()).toEqual([
      "domain-1.example/",
      "domain-2.example/",
      "stray.txt",
    ]);
    await expectHolds(driverOf("verify"), editions.before);
  });
});

describe("a target published by an older version", { timeout: 120_000 }, () => {
  it("is read through its whole-target manifest once, then has records and no manifest", async () => {
    await publish({ dir: editions.before, target: spied("legacy") });
    // As the previous version left it: one _catalogue/published.json, no records.
    const files: Record<string, unknown> = {};
    for (const domain of ["domain-1.example", "domain-2.example"]) {
      const key = `legacy/${recordPath(domain)}`;
      const record = decodeRecord(
        Buffer.from(
          await (
            await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: key }))
          ).Body!.transformToByteArray(),
        ),
      )!;
      for (const [rel, entry] of record.files) files[rel] = entry;
      await s3.client.send(new DeleteObjectCommand({ Bucket: "site", Key: key }));
    }
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: "legacy/_catalogue/published.json",
        Body: JSON.stringify({ generator: "catalogue", date: "2026-11-20", files }),
      }),
    );
    const summary = await publish({ dir: editions.after, target: spied("legacy") });
    // Its entries said how every file was stored: only what changed goes, and its deletes are routine.
    expect(summary.plan.uploads.map((u) => u.file.path).sort()).toEqual(editions.changed);
    expect(summary.plan.recordedDeletes).toBe(editions.removed.length);
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "site", Prefix: "legacy/_catalogue/" }),
    );
    expect((page.Contents ?? []).map((o) => o.Key).sort()).toEqual([
      "legacy/_catalogue/build.json",
      `legacy/${recordPath("domain-1.example")}`,
      `legacy/${recordPath("domain-2.example")}`,
    ]);
    await expectHolds(driverOf("legacy"), editions.after);
  });
});

describe("scoped publishes (--domain)", { timeout: 120_000 }, () => {
  it("own their domains' folders and build.json entries only; disjoint ones run at once", async () => {
    await publish({ dir: editions.before, target: spied("shards") });
    // One shard publishes domain-1 of the edited build: domain-2 stays as it was.
    const one = await publish({
      dir: editions.after,
      target: spied("shards"),
      domains: ["domain-1.example"],
    });
    expect(
      one.plan.uploads.every(
        (u) =>
          u.file.path.startsWith("domain-1.example/") || u.file.path === "_catalogue/build.json",
      ),
    ).toBe(true);
    expect(one.plan.deletes.every((rel) => rel.startsWith("domain-1.example/"))).toBe(true);
    const info = JSON.parse(
      await (
        await s3.client.send(
          new GetObjectCommand({ Bucket: "site", Key: "shards/_catalogue/build.json" }),
        )
      ).Body!.transformToString(),
    );
    expect(info.domains.map((d: { domain: string }) => d.domain)).toEqual([
      "domain-1.example",
      "domain-2.example",
    ]);
    // Both shards at once, each with its own domain: together they make the whole edited build.
    const [a, b] = await Promise.all([
      publish({ dir: editions.after, target: spied("shards"), domains: ["domain-1.example"] }),
      publish({ dir: editions.after, target: spied("shards"), domains: ["domain-2.example"] }),
    ]);
    expect(a.uploaded).toBe(0);
    expect(
      b.plan.uploads.every(
        (u) =>
          u.file.path.startsWith("domain-2.example/") || u.file.path === "_catalogue/build.json",
      ),
    ).toBe(true);
    await expectHolds(driverOf("shards"), editions.after);
    // A whole publish of the same build then has nothing to do.
    const whole = await publish({ dir: editions.after, target: spied("shards") });
    expect([whole.uploaded, whole.deleted]).toEqual([0, 0]);
  });

  it("a scoped publish deletes media only from a media folder no other domain uses", async () => {
    await publish({ dir: editions.before, target: spied("media") });
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: "media/domain-1.example/media/unused-480.jpeg",
        Body: "x",
      }),
    );
    // domain-2 keeps its images in domain-1's media folder, as the target's build.json says.
    const key = "media/_catalogue/build.json";
    const info = JSON.parse(
      await (
        await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: key }))
      ).Body!.transformToString(),
    );
    const original = JSON.stringify(info, null, 2) + "\n";
    info.domains[1].media_folder = "domain-1.example/media";
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: key,
        Body: JSON.stringify(info, null, 2) + "\n",
      }),
    );
    const shared = await publish({
      dir: editions.before,
      target: spied("media"),
      domains: ["domain-1.example"],
      verify: true,
    });
    expect(shared.plan.deletes).toEqual([]);
    await s3.client.send(new PutObjectCommand({ Bucket: "site", Key: key, Body: original }));
    const own = await publish({
      dir: editions.before,
      target: spied("media"),
      domains: ["domain-1.example"],
      verify: true,
    });
    expect(own.plan.deletes).toEqual(["domain-1.example/media/unused-480.jpeg"]);
  });
});

/** A spied S3 target that also notes every read: its path, the bytes asked for, the bytes answered. */
function readsSpied(prefix: string) {
  const target = spied(prefix);
  const reads: { rel: string; firstBytes?: number; length: number | null }[] = [];
  const get = target.get.bind(target);
  return Object.assign(target, {
    reads,
    get: async (rel: string, firstBytes?: number) => {
      const bytes = await get(rel, firstBytes);
      reads.push({ rel, firstBytes, length: bytes?.length ?? null });
      return bytes;
    },
  });
}

const storedRecord = async (prefix: string, domain: string) =>
  decodeRecord(
    Buffer.from(
      await (
        await s3.client.send(
          new GetObjectCommand({ Bucket: "site", Key: `${prefix}/${recordPath(domain)}` }),
        )
      ).Body!.transformToByteArray(),
    ),
  )!;

describe("a publish with nothing to do (publish/unchanged.ts)", { timeout: 120_000 }, () => {
  it("answers from one listing of _catalogue/ and the first line of each record", async () => {
    const first = await publish({ dir: editions.before, target: spied("quick") });
    const inputs = JSON.parse(
      await readFile(path.join(editions.before, "_catalogue/inputs.json"), "utf8"),
    ) as { domains: Record<string, string> };
    for (const domain of ["domain-1.example", "domain-2.example"]) {
      const record = await storedRecord("quick", domain);
      expect(record.inputs).toBe(inputs.domains[domain]);
    }
    const target = readsSpied("quick");
    const again = await publish({ dir: editions.before, target });
    expect([again.uploaded, again.deleted, again.skipped]).toEqual([0, 0, first.uploaded]);
    expect(target.listed).toEqual(["_catalogue/"]);
    expect(target.reads.map((r) => r.rel).sort()).toEqual([
      recordPath("domain-1.example"),
      recordPath("domain-2.example"),
    ]);
    // Range reads: s3rver answers the first kilobyte of records far larger than that.
    expect(
      target.reads.every(
        (r) => r.firstBytes === RECORD_HEAD_BYTES && r.length === RECORD_HEAD_BYTES,
      ),
    ).toBe(true);
    expect(again.requests).toBe(3);
    // The same for a shard: build.json is read to merge its entries, no listing beyond _catalogue/.
    const shard = readsSpied("quick");
    const scoped = await publish({
      dir: editions.before,
      target: shard,
      domains: ["domain-2.example"],
    });
    expect([scoped.uploaded, scoped.deleted, scoped.requests]).toEqual([0, 0, 3]);
    expect(shard.reads.map((r) => r.rel).sort()).toEqual([
      "_catalogue/build.json",
      recordPath("domain-2.example"),
    ]);
  });

  it("is not taken when a domain's inputs changed, a record is updating, build.json differs or a domain is gone", async () => {
    await publish({ dir: editions.before, target: spied("doubt") });
    // Another build: its keys are not the records'.
    const edited = readsSpied("doubt");
    const after = await publish({ dir: editions.after, target: edited });
    expect(after.plan.uploads.map((u) => u.file.path).sort()).toEqual(editions.changed);
    expect(
      edited.reads.some(
        (r) => r.firstBytes === undefined && r.rel === recordPath("domain-1.example"),
      ),
    ).toBe(true);

    // build.json changed behind the publisher's back: restored.
    await s3.client.send(
      new PutObjectCommand({ Bucket: "site", Key: "doubt/_catalogue/build.json", Body: "{}" }),
    );
    const restored = await publish({ dir: editions.after, target: spied("doubt") });
    expect(restored.plan.uploads.map((u) => u.file.path)).toEqual(["_catalogue/build.json"]);

    // A domain the build no longer has, recorded complete: a whole publish removes it.
    const gone: DomainRecord = {
      domain: "gone.example",
      state: "complete",
      date: "2026-11-20",
      inputs: "x",
      files: new Map(),
      pending: new Set(),
    };
    gone.files.set("gone.example/index.html", {
      size: 1,
      md5: "0cc175b9c0f1b6a831c399e269772661",
      contentType: "text/html; charset=utf-8",
      cacheControl: "public, max-age=300",
    });
    await s3.client.send(
      new PutObjectCommand({ Bucket: "site", Key: "doubt/gone.example/index.html", Body: "a" }),
    );
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: `doubt/${recordPath("gone.example")}`,
        Body: encodeRecord(gone),
      }),
    );
    const removed = await publish({ dir: editions.after, target: spied("doubt") });
    expect(removed.plan.deletes).toEqual(["gone.example/index.html"]);

    // A record left updating by a killed run, with the right key: the domain is listed again.
    const record = await storedRecord("doubt", "domain-2.example");
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: `doubt/${recordPath("domain-2.example")}`,
        Body: encodeRecord({ ...record, state: "updating" }),
      }),
    );
    const listed = spied("doubt");
    const repaired = await publish({ dir: editions.after, target: listed });
    expect(repaired.uploaded).toBe(0);
    expect(listed.listed).toContain("domain-2.example/");
    expect((await storedRecord("doubt", "domain-2.example")).state).toBe("complete");
    await expectHolds(driverOf("doubt"), editions.after);
  });
});
