import { execFile } from "node:child_process";
import { readdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH } from "../../src/output/tree.ts";
import { hashFile } from "../../src/util/hash.ts";
import { generatedContent, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";

const run = promisify(execFile);

/**
 * Every file's MD5, but the build's record of its inputs (it digests the program's own sources, so
 * an edit of src/ during a development run would change it) and the file list that includes it.
 */
async function snapshot(root: string): Promise<Record<string, string>> {
  const real = await realpath(root);
  const result: Record<string, string> = {};
  for (const entry of await readdir(real, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(real, path.join(entry.parentPath, entry.name));
    if (rel === "_catalogue/inputs.json" || rel === MANIFEST_PATH) continue;
    if (entry.isFile())
      result[path.relative(real, path.join(entry.parentPath, entry.name))] = (
        await hashFile(path.join(entry.parentPath, entry.name))
      ).md5;
  }
  return result;
}

const args = (content: string, out: string) => [
  "build",
  "--content",
  content,
  "--out",
  out,
  "--date",
  "2026-11-20",
  "--no-site",
];
const build = async (content: string, out: string, cwd: string) => {
  const built = await catalogue(args(content, out), { cwd, inherit: true });
  expect(built.code, built.stderr).toBe(0);
};

let dir: string;
let cleanup: () => Promise<void>;
let contentA: string;
let contentB: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  contentA = await generatedContent(dir, { works: 400, domains: 2 });
  contentB = path.join(dir, "content-b");
  await run("cp", ["-a", contentA, contentB]);
  // B renames every title, so a build of B rewrites nearly every file.
  const csv = await readFile(path.join(contentB, "audiovisuals.csv"), "utf8");
  await writeFile(
    path.join(contentB, "audiovisuals.csv"),
    csv.replace(/\n(\d+),([^,\n]+),/g, "\n$1,B $2,"),
  );
});
afterAll(() => cleanup());

describe("crash safety of build", () => {
  it("a build killed at any moment leaves the previous output complete, and the next build recovers", async () => {
    await build(contentA, "ref-a", dir);
    await build(contentB, "ref-b", dir);
    const a = await snapshot(path.join(dir, "ref-a"));
    const b = await snapshot(path.join(dir, "ref-b"));
    expect(a).not.toEqual(b);

    await build(contentA, "out", dir);
    const started = performance.now();
    await build(contentB, "timing", dir);
    const duration = performance.now() - started;

    // Kill builds of B over A at spread-out moments: before, during and around the swap.
    const kills = 8;
    for (let i = 0; i < kills; i++) {
      const delay = (duration * (i + 0.5)) / kills;
      // Killed (SIGKILL) `delay` after its start, unless it ended before.
      await catalogue(args(i % 2 ? contentA : contentB, "out"), {
        cwd: dir,
        inherit: true,
        timeoutMs: delay,
      });
      const now = await snapshot(path.join(dir, "out"));
      // Whole: exactly one of the two complete outputs, never a mixture or a partial tree.
      expect([a, b]).toContainEqual(now);
    }
    await build(contentA, "out", dir);
    expect(await snapshot(path.join(dir, "out"))).toEqual(a);
    // Leftover staging folders of the killed builds are cleaned up.
    const versions = await readdir(path.join(dir, ".out.versions"));
    expect(versions.filter((v) => v.endsWith(".tmp"))).toEqual([]);
  }, 180_000);
});
