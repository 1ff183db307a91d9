import { spawn } from "node:child_process";
import { cp, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuildSummary } from "../../src/pipeline/pipeline.ts";
import { BUILD_INFO_PATH, parseBuildInfo } from "../../src/output/build-info.ts";
import type { BuildChanges } from "../../src/publish/records/changes.ts";
import { headersFor } from "../../src/publish/targets/file-headers.ts";
import { publish, type PublishSummary } from "../../src/publish/publish.ts";
import {
  decodeRecord,
  encodeRecord,
  patchRecord,
  recordLines,
  recordPath,
  type DomainRecord,
} from "../../src/publish/records/records.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import { ownersOf } from "../../src/publish/source.ts";
import {
  buildFixture,
  CLI,
  generatedContent,
  outputFiles,
  ROOT,
  tempDir,
} from "../helpers/catalogue.ts";
import { seeded, startFaultProxy } from "./fault-proxy.ts";
import { useS3rver } from "../support/s3.ts";

/**
 * A deploy plans its publish from what the build changed (publish/changes.ts) when every record
 * is complete with the key of the version the build replaced. That plan must be exactly the full
 * comparison's: the same uploads for the same reasons, the same deletes, records that say what
 * the bucket holds. Any doubt (a record of another build, one left updating, a scoped publish)
 * compares everything.
 */

let root: { dir: string; cleanup: () => Promise<void> };
const s3 = useS3rver(["site"]);
/** The generated catalogue, and a copy with one work renamed and another withdrawn. */
let original: string;
let edited: string;

beforeAll(async () => {
  root = await tempDir("catalogue-changes-");
  original = await generatedContent(root.dir, { works: 200, domains: 2 });
  edited = path.join(root.dir, "edited");
  await cp(original, edited, { recursive: true });
  const csv = path.join(edited, "audiovisuals.csv");
  const [header, ...rows] = (await readFile(csv, "utf8")).split("\n");
  // Work 1 renamed so that it moves in name order; work 2 withdrawn (status_global 0).
  const edit = rows.map((row) => {
    const cells = row.split(",");
    if (cells[0] === "1") cells[1] = "Zzz título renombrado";
    if (cells[0] === "2") cells[cells.length - 1] = "0";
    return cells.join(",");
  });
  await writeFile(csv, [header, ...edit].join("\n"));
}, 120_000);
afterAll(async () => {
  await root?.cleanup();
});

const store = (prefix: string) =>
  new S3Store({
    url: `s3://site/${prefix}`,
    endpoint: s3.endpoint,
    env: s3.env,
    retry: { attempts: 2, baseMs: 5 },
  });

/** What a deploy's build hands over (src/cli/commands/deploy.ts). */
const changesOf = (built: BuildSummary): BuildChanges => ({
  files: built.manifest!,
  previousKeys: built.previousKeys!,
});

const planOf = (summary: PublishSummary) => ({
  uploads: summary.plan.uploads.map((u) => `${u.reason} ${u.file.path}`),
  deletes: summary.plan.deletes,
  skipped: summary.plan.skipped,
  // What the delete guard weighs the deletes against (a publish with nothing to do may not count it).
  recorded: summary.plan.deletes.length > 0 ? summary.plan.recorded : null,
});

/** Records the last deploy's publish read from the bucket rather than from its local copies. */
let recordReads = 0;

/** Builds `content` into `out` (dated `date`), and checks that the quick plan is the full comparison's before publishing by it. */
async function deploy(
  prefix: string,
  out: string,
  content: string,
  date = "2026-11-20",
  expectQuick = true,
) {
  const built = await buildFixture(content, out, { site: false, date });
  const changes = changesOf(built);
  const full = await publish({ dir: out, target: store(prefix), dryRun: true });
  const quick = await publish({ dir: out, target: store(prefix), dryRun: true, changes });
  expect(quick.quick).toBe(expectQuick);
  expect(planOf(quick)).toEqual(planOf(full));
  const target = store(prefix);
  const get = target.get.bind(target);
  recordReads = 0;
  target.get = (rel: string, firstBytes?: number) => {
    if (rel.startsWith("_catalogue/records/")) recordReads++;
    return get(rel, firstBytes);
  };
  // As a deploy does: with local copies of the records (publish/record-cache.ts).
  const summary = await publish({
    dir: out,
    target,
    changes,
    cacheDir: path.join(root.dir, "cache", prefix),
  });
  expect(summary.quick).toBe(expectQuick);
  expect(planOf(summary)).toEqual(planOf(full));
  return summary;
}

async function listBucket(prefix: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "site", Prefix: `${prefix}/`, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? [])
      found.set(o.Key!.slice(prefix.length + 1), o.ETag!.replace(/"/g, ""));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return found;
}

/** The bucket holds exactly the build, and each record lists exactly its domain's files as the bucket holds them. */
async function expectExactly(prefix: string, out: string) {
  const files = await outputFiles(out);
  delete files["_catalogue/inputs.json"];
  const bucket = await listBucket(prefix);
  const held = [...bucket].filter(
    ([rel]) => !rel.startsWith("_catalogue/records/") && !rel.startsWith("_catalogue/leases/"),
  );
  expect(new Map(held)).toEqual(new Map(Object.entries(files).map(([rel, f]) => [rel, f.md5])));
  const info = parseBuildInfo(await readFile(path.join(out, BUILD_INFO_PATH)))!;
  const keys = JSON.parse(
    await readFile(path.join(await realpath(out), "_catalogue/inputs.json"), "utf8"),
  ).domains as Record<string, string>;
  for (const { domain } of info.domains) {
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: "site", Key: `${prefix}/${recordPath(domain)}` }),
    );
    const record = decodeRecord(Buffer.from(await object.Body!.transformToByteArray()))!;
    expect([record.state, record.inputs, record.date, record.pending.size]).toEqual([
      "complete",
      keys[domain],
      info.date,
      0,
    ]);
    const owned = Object.keys(files).filter((rel) => ownersOf(rel, info).includes(domain));
    expect([...record.files.keys()].sort()).toEqual(owned.sort());
    for (const rel of owned) {
      const [entry, file, headers] = [record.files.get(rel)!, files[rel]!, headersFor(rel, info)];
      expect(
        [entry.size, entry.md5, entry.contentType, entry.cacheControl, entry.contentDisposition],
        rel,
      ).toEqual([
        file.size,
        file.md5,
        headers.contentType,
        headers.cacheControl,
        headers.contentDisposition,
      ]);
    }
  }
}

describe("a deploy planned from the build's changes", { timeout: 300_000 }, () => {
  it("uploads and deletes what the full comparison would, and records what the bucket holds", async () => {
    const out = path.join(root.dir, "out");
    // No record yet: the first publish compares (lists) everything.
    await deploy("quick", out, original, "2026-11-20", false);
    await expectExactly("quick", out);

    // A work renamed (it moves in name order) and another withdrawn.
    const edit = await deploy("quick", out, edited);
    expect(edit.plan.uploads.length).toBeGreaterThan(0);
    expect(edit.plan.deletes.some((rel) => rel.endsWith("/_api/detail/2.json"))).toBe(true);
    await expectExactly("quick", out);

    // Back again, then the next day (the date changes listings, exports and is_new).
    const back = await deploy("quick", out, original);
    // The records the previous deploy stored are the local copies: none is downloaded.
    expect(recordReads).toBe(0);
    expect(
      back.plan.uploads.some(
        (u) => u.reason === "new" && u.file.path.endsWith("/_api/detail/2.json"),
      ),
    ).toBe(true);
    await expectExactly("quick", out);
    const next = await deploy("quick", out, original, "2026-11-21");
    expect(next.plan.uploads.length).toBeGreaterThan(0);
    await expectExactly("quick", out);
  });

  it("leaves an out-of-band change to the bucket alone as a plain publish does; --verify repairs it", async () => {
    const out = path.join(root.dir, "out-verify");
    await deploy("verify", out, original, "2026-11-20", false);
    await deploy("verify", out, edited);
    const gone = "domain-1.example/_api/detail/3.json";
    const tampered = "domain-2.example/_api/detail/4.json";
    await s3.client.send(new DeleteObjectCommand({ Bucket: "site", Key: `verify/${gone}` }));
    await s3.client.send(
      new PutObjectCommand({ Bucket: "site", Key: `verify/${tampered}`, Body: "{}" }),
    );
    const back = await deploy("verify", out, original);
    expect(back.plan.uploads.map((u) => u.file.path)).not.toContain(gone);
    expect(back.plan.uploads.map((u) => u.file.path)).not.toContain(tampered);
    const repaired = await publish({ dir: out, target: store("verify"), verify: true });
    expect(repaired.plan.uploads.map((u) => `${u.reason} ${u.file.path}`).sort()).toEqual(
      [`changed ${tampered}`, `new ${gone}`].sort(),
    );
    await expectExactly("verify", out);
  });

  it("compares everything when a record is of another build, left updating, or the publish is scoped", async () => {
    const out = path.join(root.dir, "out-doubt");
    await deploy("doubt", out, original, "2026-11-20", false);
    // A build that is never published: the next one replaces a version the records do not describe.
    await buildFixture(edited, out, { site: false });
    const other = await deploy("doubt", out, original, "2026-11-20", false);
    expect(other.plan.uploads).toEqual([]);
    await expectExactly("doubt", out);

    // A record left updating (a killed publish): that domain is listed, everything compared.
    const key = `doubt/${recordPath("domain-1.example")}`;
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
    await deploy("doubt", out, edited, "2026-11-20", false);
    // That record is not the local copy: it is read from the bucket.
    expect(recordReads).toBeGreaterThan(0);
    await expectExactly("doubt", out);

    // A scoped publish (a shard of a network) merges build.json: compared as always.
    const built = await buildFixture(original, out, { site: false });
    const scoped = await publish({
      dir: out,
      target: store("doubt"),
      domains: ["domain-1.example"],
      changes: changesOf(built),
    });
    expect(scoped.quick).toBe(false);
    expect(scoped.plan.uploads.length).toBeGreaterThan(0);
  });
});

describe(
  "a deploy planned from the build's changes, killed with SIGKILL",
  { timeout: 300_000 },
  () => {
    it("never leaves a record claiming an object the bucket lacks, and the next deploy converges", async () => {
      const seed = Number(process.env.FAULT_SEED ?? 20261124);
      const proxy = await startFaultProxy(s3.endpoint, seed);
      const random = seeded(seed);
      const out = path.join(root.dir, "out-kill");
      const run = (content: string) => {
        const args = [
          "deploy",
          "--content",
          content,
          "--out",
          out,
          "--cache",
          path.join(root.dir, ".cache"),
          "--no-site",
          "--date",
          "2026-11-20",
        ];
        const child = spawn(
          process.execPath,
          [CLI, ...args, "--to", "s3://site/kill", "--endpoint", proxy.endpoint],
          { cwd: ROOT, env: { PATH: process.env.PATH, ...s3.env }, stdio: "ignore" },
        );
        return {
          child,
          exited: new Promise<number | null>((resolve) => child.once("exit", resolve)),
        };
      };
      /** Every record's files are in the bucket with the MD5 it says. */
      const expectRecordsTrue = async () => {
        const bucket = await listBucket("kill");
        for (const rel of [...bucket.keys()].filter((r) => r.startsWith("_catalogue/records/"))) {
          const object = await s3.client.send(
            new GetObjectCommand({ Bucket: "site", Key: `kill/${rel}` }),
          );
          const record = decodeRecord(Buffer.from(await object.Body!.transformToByteArray()))!;
          for (const [file, entry] of record.files)
            expect(bucket.get(file), `${rel} claims ${file}`).toBe(entry.md5);
        }
      };
      try {
        expect(await run(original).exited).toBe(0);
        let kills = 0;
        for (let round = 0; round < 4; round++) {
          const content = round % 2 === 0 ? edited : original;
          // The build writes nothing to the bucket: the publish's writes (records, about 40 files, records) are counted.
          const at = proxy.writes.length + 1 + Math.floor(random() * 40);
          const { child, exited } = run(content);
          const watch = setInterval(() => {
            if (proxy.writes.length >= at) child.kill("SIGKILL");
          }, 2);
          if ((await exited) === null) kills++;
          clearInterval(watch);
          await expectRecordsTrue();
          // Run again: the build has nothing to do, the publish lists what the killed one left updating.
          expect(await run(content).exited).toBe(0);
          await expectRecordsTrue();
          await expectExactly("kill", out);
        }
        expect(kills).toBeGreaterThan(0);
      } finally {
        await proxy.stop();
      }
    });
  },
);

describe("patchRecord", () => {
  const entry = (md5: string) => ({
    size: 3,
    md5,
    contentType: "application/json",
    cacheControl: "public, max-age=300",
  });
  // ASCII records are patched as bytes; a path with another character takes the text path.
  for (const odd of ["d.example/z.json", "d.example/ñandú.json"]) {
    it(`writes byte for byte what encodeRecord writes for the same record (${odd})`, () => {
      const files = new Map([
        ["d.example/a.json", entry("a")],
        ["d.example/m.json", entry("m")],
        [odd, entry("z")],
      ]);
      const record: DomainRecord = {
        domain: "d.example",
        state: "complete",
        date: "2026-11-20",
        inputs: "k1",
        files,
        pending: new Set(),
      };
      const stored = recordLines(encodeRecord(record))!;
      expect(stored.bytes === null).toBe(odd.includes("ñ"));
      // m.json changed and stored, b.json new and pending, a.json deleted, the odd one untouched.
      const patched = patchRecord(
        stored,
        { domain: "d.example", state: "updating", date: "2026-11-21", inputs: "k2" },
        [
          ["d.example/a.json", null],
          ["d.example/b.json", "pending"],
          ["d.example/m.json", entry("m2")],
        ],
      );
      const expected = encodeRecord({
        domain: "d.example",
        state: "updating",
        date: "2026-11-21",
        inputs: "k2",
        files: new Map([
          ["d.example/m.json", entry("m2")],
          [odd, entry("z")],
        ]),
        pending: new Set(["d.example/b.json"]),
      });
      expect(patched.toString()).toBe(expected.toString());
      expect(decodeRecord(patched)!.files.size).toBe(2);
    });
  }
});
