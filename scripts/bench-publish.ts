/**
 * Publishing benchmark: a generated catalogue (20,000 works, 3 domains by default) built with
 * --no-site, published to s3rver on loopback three times: first (everything), again (nothing
 * changed), and after a one-title edit and rebuild. Prints time, requests and files per run.
 *
 *   npx tsx scripts/bench-publish.ts [--works 20000] [--domains 3] [--root /tmp/bench-publish]
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "../src/build.ts";
import { publish, type PublishSummary } from "../src/publish/publish.ts";
import { S3Target } from "../src/publish/s3.ts";
import { startS3rver } from "../test/publish/s3rver.ts";
import { generateCatalogue } from "./generate.ts";

const { values } = parseArgs({
  options: {
    works: { type: "string", default: "20000" },
    domains: { type: "string", default: "3" },
    root: { type: "string", default: "/tmp/bench-publish" },
  },
});
const root = path.resolve(values.root!);
const content = path.join(root, "content");
const out = path.join(root, "out");
const date = "2026-11-20";

await rm(root, { recursive: true, force: true });
console.error(`generating ${values.works} works in ${values.domains} domains…`);
await generateCatalogue(content, { works: Number(values.works), domains: Number(values.domains) });
const buildOnce = () => build({ contentDir: content, outDir: out, date, site: false, cacheDir: path.join(root, "cache") });
console.error("building (--no-site)…");
const built = await buildOnce();

const s3 = await startS3rver(["bench"]);
const rows: { run: string; summary: PublishSummary }[] = [];
try {
  const run = async (name: string) => {
    console.error(`publishing: ${name}…`);
    const target = new S3Target({ url: "s3://bench/site", endpoint: s3.endpoint, env: s3.env });
    rows.push({ run: name, summary: await publish({ dir: out, target }) });
  };
  await run("first publish");
  await run("no change");
  // One title changes: its detail file, the pages that list it, the exports.
  const csv = path.join(content, "audiovisuals.csv");
  const lines = (await readFile(csv, "utf8")).split("\n");
  const cells = lines[1]!.split(",");
  cells[1] = `${cells[1]} (restaurada)`;
  lines[1] = cells.join(",");
  await writeFile(csv, lines.join("\n"));
  const rebuilt = await buildOnce();
  console.error(`rebuilt: ${rebuilt.written} files written, ${rebuilt.removed} removed`);
  await run("one-title edit");
} finally {
  await s3.stop();
}

const table = [
  ["run", "seconds", "requests", "uploaded", "skipped", "deleted", "bytes"],
  ...rows.map(({ run, summary: s }) => [run, s.seconds.toFixed(2), String(s.requests), String(s.uploaded), String(s.skipped), String(s.deleted), String(s.bytes)]),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
console.log(`${values.works} works, ${values.domains} domains, ${built.files} files (--no-site), s3rver on 127.0.0.1, concurrency 8`);
for (const row of table) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "));
await rm(root, { recursive: true, force: true });
