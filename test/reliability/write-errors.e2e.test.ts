import { chmod, chown, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedContent, tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import { cli, escapeRegExp, manifestMatches, runCli, snapshot, type CliResult } from "./helpers.ts";

/**
 * A target that cannot be written is the operator's problem, not a bug: the build must stop with
 * exit 1 and one line naming the path and what to do (never a raw EACCES/ENOSPC trace, exit 2),
 * and the previous output must stay whole, byte for byte.
 *
 * Tests run as root here, which ignores permissions, so the cases are made with tricks that hold
 * for root too: a file where a folder is expected, the build run as the user `nobody`, and a
 * file-size limit (`ulimit -f`: Node ignores SIGXFSZ, so a write past it fails with EFBIG, like a
 * full disk fails with ENOSPC in the middle of a build).
 */

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
let cache: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-write-"));
  await chmod(dir, 0o755); // readable by `nobody`, like a real output parent
  content = await writeContent(path.join(dir, "content"));
  cache = path.join(dir, "cache");
  await mkdir(cache);
  if (isRoot) await chown(cache, NOBODY, NOBODY);
});
afterAll(() => cleanup());

const args = (out: string, date: string, from = content) => [
  "build",
  "--content",
  from,
  "--out",
  out,
  "--date",
  date,
  "--no-site",
  "--cache",
  cache,
];
/** In this process through the CLI's own code, or as a child process when `options` are given. */
const build = (
  out: string,
  date = "2026-11-20",
  options?: Parameters<typeof cli>[1],
  from = content,
) => (options === undefined ? runCli(args(out, date, from)) : cli(args(out, date, from), options));

/** Exit 1, a one-line message naming `where` and what to do, no trace. */
function expectClearFailure(result: CliResult, where: string) {
  expect(result.stderr).not.toContain("internal error");
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.code).toBe(1);
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^catalogue build: /);
  expect(lines[0]).toContain(where);
  expect(lines[0]).toContain("--out");
}

describe("an output that cannot be written", () => {
  it("a file where the versions folder goes: exit 1 naming it, nothing else touched", async () => {
    const parent = path.join(dir, "file-in-the-way");
    await mkdir(parent);
    const versions = path.join(parent, ".dist.versions");
    await writeFile(versions, "not a folder");
    expectClearFailure(await build(path.join(parent, "dist")), versions);
    expect(await readdir(parent)).toEqual([".dist.versions"]);
  }, 60_000);

  it("an output folder under a regular file: exit 1 naming the path", async () => {
    const file = path.join(dir, "plain-file");
    await writeFile(file, "x");
    expectClearFailure(await build(path.join(file, "dist")), file);
  }, 60_000);

  it("an image cache that cannot be written: exit 1 naming it and --cache, nothing written", async () => {
    const file = path.join(dir, "cache-file");
    await writeFile(file, "x");
    const cacheDir = path.join(file, "cache");
    const out = path.join(dir, "cache-out");
    const result = await runCli([
      "build",
      "--content",
      content,
      "--out",
      out,
      "--date",
      "2026-11-20",
      "--no-site",
      "--cache",
      cacheDir,
    ]);
    expect(result.stderr).not.toContain("internal error");
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^catalogue build: .*${escapeRegExp(cacheDir)}.*--cache`)),
    ]);
    await expect(readdir(out)).rejects.toThrow();
  }, 60_000);

  it("a read-only output folder: exit 1 naming it, the previous output kept", async () => {
    const parent = path.join(dir, "read-only");
    await mkdir(parent);
    const out = path.join(parent, "dist");
    expect((await build(out)).code).toBe(0);
    const before = await snapshot(out);
    let result: CliResult;
    if (isRoot) {
      // root writes anywhere: build as `nobody`, for whom the folders root made are read-only.
      result = await build(out, "2026-11-21", {
        uid: NOBODY,
        gid: NOBODY,
        env: { ...process.env, HOME: "/tmp" },
      });
    } else {
      await chmod(parent, 0o555);
      await chmod(path.join(parent, ".dist.versions"), 0o555);
      result = await build(out, "2026-11-21");
      await chmod(parent, 0o755);
      await chmod(path.join(parent, ".dist.versions"), 0o755);
    }
    expectClearFailure(result, parent);
    expect(await snapshot(out)).toEqual(before);
  }, 60_000);

  it("a write into the output that fails in the middle of the build (a full disk): exit 1, the previous output whole, the next build recovers", async () => {
    const parent = path.join(dir, "full");
    await mkdir(parent);
    const out = path.join(parent, "dist");
    const big = await generatedContent(parent, { works: 60, domains: 1, covers: 2, bio: 80 });
    expect((await build(out, "2026-11-20", undefined, big)).code).toBe(0);
    const before = await snapshot(out);
    // New titles change every API page: the first page written (over 4 KiB) passes the limit
    // before any spreadsheet is made.
    const works = path.join(big, "audiovisuals.csv");
    await writeFile(
      works,
      (await readFile(works, "utf8")).replace(/\n(\d+),([^,\n]+),/g, "\n$1,Nuevo $2,"),
    );
    // 4 KiB per file: reading goes through, the first larger file written fails (EFBIG).
    const failed = await build(out, "2026-11-20", { shell: "ulimit -f 4;" }, big);
    expectClearFailure(failed, parent);
    expect(await snapshot(out)).toEqual(before);
    // No staging folder, no lock left behind: the next build just works.
    expect(
      (await readdir(path.join(parent, ".dist.versions"))).filter(
        (n) => n.endsWith(".tmp") || n === "lock",
      ),
    ).toEqual([]);
    expect((await build(out, "2026-11-20", undefined, big)).code).toBe(0);
    expect(await manifestMatches(out)).toBe(true);
    expect(await snapshot(out)).not.toEqual(before);
  }, 90_000);

  it("a temporary spreadsheet that cannot be written: exit 1 naming the temporary folder, the previous output whole", async () => {
    const parent = path.join(dir, "full-tmp");
    await mkdir(parent);
    const out = path.join(parent, "dist");
    expect((await build(out)).code).toBe(0);
    const before = await snapshot(out);
    // Same content, another date: the big files of the output are unchanged (hard links), so the
    // first write past the limit is an export's temporary file in TMPDIR.
    const failed = await build(out, "2026-11-21", { shell: "ulimit -f 4;" });
    expect(failed.stderr).not.toContain("internal error");
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(
      new RegExp(`^catalogue build: .*${escapeRegExp(tmpdir())}.*TMPDIR`),
    );
    expect(await snapshot(out)).toEqual(before);
  }, 90_000);
});
