import { execFile } from "node:child_process";
import { lstat, readdir, readFile, readlink, rm, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashFile } from "../../src/util/hash.ts";
import { generatedContent, ROOT, tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";

const run = promisify(execFile);

/** Runs the real command line in `cwd` with this process's environment and `env`. */
const inFolder = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  catalogue(args, { cwd, env, inherit: true });

/** Every file of a tree with its MD5, to compare whole outputs. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const real = await (await import("node:fs/promises")).realpath(root);
  for (const entry of await readdir(real, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result[path.relative(real, file)] = (await hashFile(file)).md5;
  }
  return result;
}

let dir: string;
let cleanup: () => Promise<void>;
let content: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  content = await generatedContent(dir, { works: 120, domains: 2 });
});
afterAll(() => cleanup());

describe("catalogue build and validate (CLI)", () => {
  it("builds, is deterministic across output folders, and rebuilds without rewriting", async () => {
    const first = await inFolder(
      ["build", "--content", content, "--out", "a", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    expect(first.stderr).toMatch(
      /built 2 domain\(s\) for 2026-11-20 into a: \d+ files, \d+ written, 0 unchanged, 0 removed/,
    );
    expect(first.code).toBe(0);
    const second = await inFolder(["build", "--content", content, "--out", "b", "--no-site"], dir, {
      SOURCE_DATE_EPOCH: String(Date.UTC(2026, 10, 20, 15) / 1000),
    });
    expect(second.code).toBe(0);
    const a = await snapshot(path.join(dir, "a"));
    expect(Object.keys(a).length).toBeGreaterThan(100);
    expect(await snapshot(path.join(dir, "b"))).toEqual(a);

    const probe = path.join(dir, "a", "domain-1.example/_api/list/plain/default/1.json");
    const before = await stat(probe);
    const again = await inFolder(
      ["build", "--content", content, "--out", "a", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    expect(again.stderr).toMatch(/, 0 written, \d+ unchanged, 0 removed/);
    const after = await stat(probe);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("reports a build with nothing to do from its records, and rebuilds when the compiled program changes", async () => {
    // A copy of the installed command whose recorded code digest can change (node_modules shared).
    const install = path.join(dir, "install");
    await run("mkdir", ["-p", install]);
    await run("cp", [
      "-a",
      path.join(ROOT, "bin"),
      path.join(ROOT, "lib"),
      path.join(ROOT, "package.json"),
      path.join(ROOT, "i18n"),
      install,
    ]);
    await symlink(path.join(ROOT, "node_modules"), path.join(install, "node_modules"));
    const cli = path.join(install, "bin/catalogue.js");
    const args = ["build", "--content", content, "--out", "p", "--date", "2026-11-20", "--no-site"];
    const build = async () => (await run(process.execPath, [cli, ...args], { cwd: dir })).stderr;
    const first = await build();
    const files = /(\d+) files/.exec(first)![1];
    const again = await build();
    expect(again).toContain("nothing to do");
    expect(again).toContain(`${files} files, 0 written, ${files} unchanged`);
    // Without its record the program hashes lib/ itself, to the same digest: still nothing to do.
    await rm(path.join(install, "lib/code-digest"));
    expect(await build()).toContain("nothing to do");
    // Another program (a recompiled lib/): everything is built again, to the same bytes.
    await writeFile(path.join(install, "lib/code-digest"), "f".repeat(64) + "\n");
    const rebuilt = await build();
    expect(rebuilt).not.toContain("nothing to do");
    expect(rebuilt).toContain(`${files} files, 1 written`); // inputs.json, with the new fingerprint
  });

  it("rewrites only what a one-title rename changes", async () => {
    const copy = path.join(dir, "edited");
    await run("cp", ["-a", content, copy]);
    await inFolder(
      ["build", "--content", copy, "--out", "e", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    const before = await snapshot(path.join(dir, "e"));
    const csv = await readFile(path.join(copy, "audiovisuals.csv"), "utf8");
    // A work that is surely listed: the first one of the first page.
    const first = JSON.parse(
      await readFile(
        path.join(dir, "e", "domain-1.example/_api/list/plain/default/1.json"),
        "utf8",
      ),
    );
    const line = csv.split("\n").find((l) => l.startsWith(`${first.results[0].id},`))!;
    const renamed = line.replace(/^(\d+),[^,]+,/, "$1,Zzz renamed title,");
    await writeFile(path.join(copy, "audiovisuals.csv"), csv.replace(line, renamed));
    const result = await inFolder(
      ["build", "--content", copy, "--out", "e", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    const after = await snapshot(path.join(dir, "e"));
    const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
    const written = Number(/(\d+) written/.exec(result.stderr)![1]);
    // The summary counts exactly the files whose bytes changed (the manifest is not counted).
    expect(written).toBe(changed.filter((f) => f !== "_catalogue/files.tsv").length);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(Object.keys(after).length / 2);
  });

  it("rejects bad content with every problem, exit 1, no stack trace, and keeps the previous output", async () => {
    const bad = path.join(dir, "bad");
    await run("cp", ["-a", content, bad]);
    await inFolder(
      ["build", "--content", bad, "--out", "kept", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    const before = await snapshot(path.join(dir, "kept"));
    const link = await readlink(path.join(dir, "kept"));
    const csv = await readFile(path.join(bad, "audiovisuals.csv"), "utf8");
    const lines = csv.split("\n");
    lines[2] = lines[2]!.replace(/^(\d+),([^,]+),[^,]+,/, "$1,$2,../x,");
    lines[4] = lines[4]!.replace(/^\d+,/, "abc,");
    await writeFile(path.join(bad, "audiovisuals.csv"), lines.join("\n"));
    const result = await inFolder(
      ["build", "--content", bad, "--out", "kept", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${bad}/audiovisuals.csv:3: slug: expected lowercase letters`);
    expect(result.stderr).toContain(
      `${bad}/audiovisuals.csv:5: id: expected a positive integer, got "abc"`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await readlink(path.join(dir, "kept"))).toBe(link);
    expect(await snapshot(path.join(dir, "kept"))).toEqual(before);

    const validate = await inFolder(["validate", "--content", bad], dir);
    expect(validate.code).toBe(1);
    // The id that became "abc" no longer exists, so its availability row now dangles too.
    expect(validate.stderr).toMatch(
      /availability\.csv:\d+: audiovisual_id: no audiovisual with id 4 in /,
    );
    expect(validate.stderr).toContain("3 problem(s) found");
    expect((await inFolder(["validate", "--content", content], dir)).code).toBe(0);
  });

  it("builds only the named domains and keeps the others' output", async () => {
    await inFolder(
      ["build", "--content", content, "--out", "d", "--date", "2026-11-20", "--no-site"],
      dir,
    );
    const before = await snapshot(path.join(dir, "d"));
    const result = await inFolder(
      [
        "build",
        "--content",
        content,
        "--out",
        "d",
        "--date",
        "2026-11-21",
        "--no-site",
        "--domain",
        "domain-2.example",
      ],
      dir,
    );
    expect(result.stderr).toContain("built 1 domain(s) for 2026-11-21");
    const after = await snapshot(path.join(dir, "d"));
    const domain1 = (s: Record<string, string>) =>
      Object.entries(s).filter(([f]) => f.startsWith("domain-1.example/"));
    expect(domain1(after)).toEqual(domain1(before));
    const info = JSON.parse(await readFile(path.join(dir, "d", "_catalogue/build.json"), "utf8"));
    expect(info.domains.map((d: { domain: string }) => d.domain)).toEqual([
      "domain-1.example",
      "domain-2.example",
    ]);
    const unknown = await inFolder(
      ["build", "--content", content, "--out", "d", "--domain", "nope.example", "--no-site"],
      dir,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "--domain: unknown domain nope.example; the domains are: domain-1.example, domain-2.example",
    );
  });

  it("answers usage errors with exit 1 and the usage line", async () => {
    const result = await inFolder(["build", "--frobnicate"], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Usage: catalogue build");
    const date = await inFolder(
      ["build", "--content", content, "--date", "2026-02-30", "--no-site"],
      dir,
    );
    expect(date.code).toBe(1);
    expect(date.stderr).toContain('--date: expected a date YYYY-MM-DD, got "2026-02-30"');
    expect(await lstat(path.join(dir, "dist")).catch(() => null)).toBeNull();
    const help = await inFolder(["--help"], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/build +validate the content/);
  });
});

describe("writer threads", () => {
  it("start when Node runs with V8 options, which threads refuse (they hold for every thread anyway)", async () => {
    // 2,500 works × 2 domains: a build that large starts its writer threads at once.
    const large = await generatedContent(path.join(dir, "large"), { works: 2500, domains: 2 });
    const out = path.join(dir, "large-out");
    const { code, stderr } = await catalogue(
      ["build", "--no-site", "--content", large, "--out", out, "--date", "2026-11-20"],
      { nodeArgs: ["--max-old-space-size=2048", "--stack-size=2000"], inherit: true },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/built 2 domain\(s\)/);
    expect(await readdir(path.join(out, "domain-1.example"))).toContain("_api");
  });

  it("write the same bytes as a build in one thread", async () => {
    const { buildFixture } = await import("../helpers/catalogue.ts");
    // 64 KB batches: dozens of batches go to the writer threads; 1 GB: everything is written here.
    await buildFixture(content, path.join(dir, "threads"), { writeBatchBytes: 64 << 10 });
    await buildFixture(content, path.join(dir, "single"), { writeBatchBytes: 1 << 30 });
    const threads = await snapshot(path.join(dir, "threads"));
    expect(Object.keys(threads).length).toBeGreaterThan(100);
    expect(threads).toEqual(await snapshot(path.join(dir, "single")));
  });
});
