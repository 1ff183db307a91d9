import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCatalogue } from "../../scripts/generate.ts";
import { decodeRecord } from "../../src/publish/records/records.ts";
import { readSource } from "../../src/publish/source.ts";
import { mapLimit } from "../../src/util/concurrency.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { useS3rver } from "../support/s3.ts";

/**
 * A network of six domains published by three shards into one bucket, each a separate
 * `catalogue deploy --domain …` process with its own output folder and image cache, all three
 * at once: what the bucket then holds must be, byte for byte and header for header, what one
 * full build of the same content and date publishes (API, exports, HTML catalogue, search index,
 * media), with no full publish in between.
 */

const DATE = "2026-11-20";
const TARGET = "s3://net/site";

/** Rows of domains.csv, in order; the shards' domain sets interleave in it. */
const DOMAINS = [
  // Three domains of three shards share one media folder on another host.
  { host: "uno.example", base: "", media: "https://media.example/red", locale: "es", shard: "a" },
  { host: "dos.example", base: "", media: "https://media.example/red", locale: "en", shard: "b" },
  // A base path, media under it.
  {
    host: "tres.example",
    base: "https://tres.example/cataleg",
    media: "",
    locale: "ca",
    shard: "b",
  },
  // Media on a host of its own.
  {
    host: "cuatro.example",
    base: "",
    media: "https://img.example/cuatro",
    locale: "gl",
    shard: "a",
  },
  { host: "cinco.example", base: "", media: "", locale: "eu", shard: "c" },
  { host: "seis.example", base: "", media: "https://media.example/red", locale: "fr", shard: "c" },
];
const SHARDS = ["a", "b", "c"].map((shard) => ({
  shard,
  domains: DOMAINS.filter((d) => d.shard === shard).map((d) => d.host),
}));

/** Sparse ids: work i of the generator is id 1000 + 37 i. */
const idOf = (i: number) => 1000 + 37 * i;
/** Listed in uno.example only: its title changes in the second round (shard a). */
const RETITLED = idOf(5);
/** Listed in dos.example only, with a cover of its own in the shared folder: withdrawn in the second round (shard b). */
const WITHDRAWN = idOf(8);

let root: { dir: string; cleanup: () => Promise<void> };
let content: string;
const s3 = useS3rver(["net"]);

beforeAll(async () => {
  root = await tempDir("catalogue-network-");
  content = path.join(root.dir, "content");
  await writeNetwork(content);
});
afterAll(async () => {
  await root?.cleanup();
});

/**
 * The generator's catalogue made into a network: the six domains above, sparse ids, a title
 * shared by a dozen works, a director with a third of the works, and the two works the second
 * round changes.
 */
async function writeNetwork(dir: string) {
  await generateCatalogue(dir, { works: 60, domains: DOMAINS.length, covers: 16, seed: 17 });
  await writeFile(
    path.join(dir, "covers", "only-withdrawn.png"),
    await sharp({ create: { width: 200, height: 300, channels: 3, background: "#c0392b" } })
      .png()
      .toBuffer(),
  );
  const header =
    "domain,name,base_url,media_url,locale,default_ordering,new_days,export_window_days\n";
  await writeFile(
    path.join(dir, "domains.csv"),
    header +
      DOMAINS.map(
        (d, i) =>
          `${d.host},Red ${d.host},${d.base},${d.media},${d.locale},${["name", "-year", "year"][i % 3]},30,30\n`,
      ).join(""),
  );
  await editCsv(path.join(dir, "audiovisuals.csv"), (cells) => {
    const i = Number(cells[0]);
    cells[0] = String(idOf(i));
    if (i % 7 === 0) cells[1] = "La noche";
    if (i % 3 === 0) cells[4] = "1";
    if (idOf(i) === WITHDRAWN) cells[7] = "covers/only-withdrawn.png";
    if (idOf(i) === RETITLED || idOf(i) === WITHDRAWN) cells[cells.length - 1] = "1";
    return cells;
  });
  await editCsv(path.join(dir, "availability.csv"), (cells) => {
    const id = idOf(Number(cells[0]));
    if (id === RETITLED || id === WITHDRAWN) return null;
    return [
      String(id),
      DOMAINS[Number(/^domain-(\d+)\.example$/.exec(cells[1]!)![1]) - 1]!.host,
      ...cells.slice(2),
    ];
  });
  await appendFile(path.join(dir, "availability.csv"), [
    `${RETITLED},uno.example,2020-01-01,`,
    `${WITHDRAWN},dos.example,2020-01-01,`,
  ]);
}

/** Rewrites each data row of a CSV (the generator quotes no cell of these files); null drops the row. */
async function editCsv(file: string, edit: (cells: string[]) => string[] | null) {
  const [head, ...rows] = (await readFile(file, "utf8")).trimEnd().split("\n");
  const kept = rows.map((row) => edit(row.split(","))).filter((cells) => cells !== null);
  await writeFile(file, [head, ...kept.map((cells) => cells.join(","))].join("\n") + "\n");
}

async function appendFile(file: string, lines: string[]) {
  await writeFile(file, (await readFile(file, "utf8")) + lines.join("\n") + "\n");
}

/** A shard's deploy, as its CI job runs it: a process of its own, its own output folder and image cache. */
async function deployShard(shard: { shard: string; domains: string[] }, extra: string[] = []) {
  const dir = path.join(root.dir, `shard-${shard.shard}`);
  const args = [
    "deploy",
    "--content",
    content,
    "--out",
    path.join(dir, "dist"),
    "--cache",
    path.join(dir, "cache"),
    "--date",
    DATE,
  ];
  for (const domain of shard.domains) args.push("--domain", domain);
  args.push("--to", TARGET, "--endpoint", s3.endpoint, ...extra);
  const { code, stderr } = await catalogue(args, { env: s3.env });
  expect(code, stderr).toBe(0);
  return stderr;
}

/** What one full build of the content publishes: each file's MD5 and headers. */
async function fullBuild(name: string) {
  const out = path.join(root.dir, name, "dist");
  await buildFixture(content, out, { date: DATE, site: true });
  const source = await readSource(out);
  await source.release();
  const files = new Map(
    source.files.map((f) => [
      f.path,
      {
        md5: f.md5 ?? null,
        abs: f.abs!,
        contentType: f.contentType,
        cacheControl: f.cacheControl,
        contentDisposition: f.contentDisposition,
      },
    ]),
  );
  return { out, files };
}

/** The paths of every object under the target's prefix. */
async function keys(): Promise<string[]> {
  const found: string[] = [];
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "net", Prefix: "site/", ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) found.push(o.Key!.slice("site/".length));
    token = page.NextContinuationToken;
  } while (token !== undefined);
  return found;
}

/** Every object under the target's prefix: its bytes' MD5 and the headers it is served with. */
async function bucket() {
  const objects = await mapLimit(await keys(), 16, async (rel) => {
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: "net", Key: `site/${rel}` }),
    );
    const bytes = Buffer.from(await object.Body!.transformToByteArray());
    return [
      rel,
      {
        md5: md5(bytes),
        contentType: object.ContentType,
        cacheControl: object.CacheControl,
        contentDisposition: object.ContentDisposition,
      },
    ] as const;
  });
  return new Map(objects);
}

const md5 = (bytes: Buffer) => createHash("md5").update(bytes).digest("hex");

/** The bucket holds exactly the full build's files (the publisher's records aside, no lease left), with their bytes and headers. */
async function expectFullBuild(full: Awaited<ReturnType<typeof fullBuild>>) {
  const held = await bucket();
  const bookkeeping = [...held.keys()].filter(
    (rel) => rel.startsWith("_catalogue/records/") || rel.startsWith("_catalogue/leases/"),
  );
  expect(bookkeeping.sort()).toEqual(DOMAINS.map((d) => `_catalogue/records/${d.host}.tsv`).sort());
  for (const rel of bookkeeping) {
    // Every record complete: the next publish of each domain trusts it and lists nothing.
    const object = await s3.client.send(
      new GetObjectCommand({ Bucket: "net", Key: `site/${rel}` }),
    );
    expect(decodeRecord(await object.Body!.transformToString())?.state, rel).toBe("complete");
    held.delete(rel);
  }
  expect([...held.keys()].sort()).toEqual([...full.files.keys()].sort());
  const wrong: string[] = [];
  for (const [rel, file] of full.files) {
    const expected = {
      md5: md5(await readFile(file.abs)),
      contentType: file.contentType,
      cacheControl: file.cacheControl,
      contentDisposition: file.contentDisposition,
    };
    if (JSON.stringify(held.get(rel)) !== JSON.stringify(expected))
      wrong.push(`${rel}: ${JSON.stringify(held.get(rel))} != ${JSON.stringify(expected)}`);
  }
  expect(wrong).toEqual([]);
  const info = JSON.parse(await readFile(path.join(full.out, "_catalogue/build.json"), "utf8"));
  expect(info.domains.map((d: { domain: string }) => d.domain)).toEqual(DOMAINS.map((d) => d.host));
}

describe("a network of three shards into one bucket", { timeout: 240_000 }, () => {
  it("holds what one full build publishes after concurrent shard deploys, after a change in two shards, and a full publish changes nothing", async () => {
    // Round 1: three processes at once on an empty bucket (and the full build meanwhile).
    const [first, full1] = await Promise.all([
      Promise.all(SHARDS.map((shard) => deployShard(shard))),
      fullBuild("full-1"),
    ]);
    for (const stderr of first)
      expect(stderr).toMatch(
        /^deployed 2026-11-20 to s3:\/\/net\/site: [1-9]\d* uploaded, \d+ skipped, 0 deleted/m,
      );
    await expectFullBuild(full1);
    const detail = await readFile(
      path.join(full1.out, `dos.example/_api/detail/${WITHDRAWN}.json`),
      "utf8",
    );
    const cover = /https:\/\/(media\.example\/red\/[^"]+)"/.exec(detail)![1]!;
    expect(await keys()).toContain(cover);

    // Round 2: shard a's work is retitled, shard b's withdrawn (its cover, in the folder three
    // shards share, is used by no domain any more: shard b prunes it); shard c has nothing to do.
    await editCsv(path.join(content, "audiovisuals.csv"), (cells) =>
      cells[0] === String(RETITLED) ? [cells[0], "Un título cambiado", ...cells.slice(2)] : cells,
    );
    await editCsv(path.join(content, "availability.csv"), (cells) =>
      cells[0] === String(WITHDRAWN) ? null : cells,
    );
    const second = await Promise.all(
      SHARDS.map((shard) => deployShard(shard, shard.shard === "b" ? ["--prune-media"] : [])),
    );
    const full = await fullBuild("full-2");
    await expectFullBuild(full);
    expect(await keys()).not.toContain(cover);
    // The retitled work's pages change, and the search index's content-named chunks (deleted).
    expect(second[0]).toMatch(/: [1-9]\d* uploaded, \d+ skipped, \d+ deleted/);
    expect(second[1]).toMatch(/: [1-9]\d* uploaded, \d+ skipped, [1-9]\d* deleted/);
    expect(second[2]).toMatch(/: 0 uploaded, \d+ skipped, 0 deleted/);

    // A full publish of the full build: nothing to change.
    const { code, stderr } = await catalogue(
      ["publish", "--dir", full.out, "--to", TARGET, "--endpoint", s3.endpoint],
      { env: s3.env },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      new RegExp(`^published to s3://net/site: 0 uploaded, ${full.files.size} skipped, 0 deleted`),
    );
    await expectFullBuild(full);
  });
});
