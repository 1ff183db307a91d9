import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findTool, inCI, MissingTool, requireTool } from "./requires.ts";

/** The one rule for programs npm does not install; test/support/requires-ci.e2e.test.ts runs it in vitest. */

const ROOT = path.resolve(import.meta.dirname, "../..");
const MISSING = "catalogue-test-no-such-tool";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("inCI", () => {
  it("is set by CI=true or 1, not by an empty, 0 or false value", () => {
    expect(["true", "TRUE", "1"].map((CI) => inCI({ CI }))).toEqual([true, true, true]);
    expect([undefined, "", "0", "false", "False"].map((CI) => inCI({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("findTool", () => {
  it("finds a program in PATH, takes an absolute path as it is, and gives null for one nowhere", () => {
    expect(findTool("node", { PATH: path.dirname(process.execPath) })).toBe(
      path.join(path.dirname(process.execPath), "node"),
    );
    expect(findTool(process.execPath, { PATH: "" })).toBe(process.execPath);
    expect(findTool(MISSING)).toBeNull();
    expect(findTool(path.join(ROOT, MISSING))).toBeNull();
  });

  it("does not take a file that cannot be run", () => {
    expect(findTool(path.join(ROOT, "package.json"))).toBeNull();
  });
});

describe("requireTool", () => {
  it("throws under CI when the program is missing, naming it, what needs it and what to install", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(() =>
      requireTool(MISSING, "the tests of something", { PATH: "/nowhere", CI: "true" }),
    ).toThrow(MissingTool);
    expect(() => requireTool("/nowhere/chromium", "the browser tests", { CI: "true" })).toThrow(
      "/nowhere/chromium is missing and CI is set, so the browser tests fail instead of skipping: install Debian's chromium (.ci/run does)",
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("outside CI gives null and prints why the tests are skipped", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(requireTool(MISSING, "the tests of something", { PATH: "/nowhere" })).toBeNull();
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toContain(
      `${MISSING} is missing: the tests of something are SKIPPED (under CI=true they fail)`,
    );
  });

  it("gives the program's path when it is there, in CI or not", () => {
    const dir = path.dirname(process.execPath);
    for (const CI of ["true", ""])
      expect(requireTool("node", "the tests", { PATH: dir, CI })).toBe(path.join(dir, "node"));
  });
});

describe("the test files", () => {
  it("skip only through requireTool (directly, or through the servers' list of serve/servers.ts)", async () => {
    const test = path.join(ROOT, "test");
    const problems: string[] = [];
    for (const entry of await readdir(test, { recursive: true, withFileTypes: true })) {
      const file = path.join(entry.parentPath, entry.name);
      if (
        !entry.isFile() ||
        !entry.name.endsWith(".ts") ||
        path.dirname(file) === import.meta.dirname
      )
        continue;
      const source = await readFile(file, "utf8");
      const skips =
        source.match(
          /\b(?:describe|it|test|suite)\.(?:skip|skipIf|runIf|todo)\b|\b(?:ctx|context)\.skip\(/g,
        ) ?? [];
      if (skips.length > 0 && !/\b(?:requireTool|availableServers)\b/.test(source))
        problems.push(`${path.relative(ROOT, file)}: ${skips.join(", ")}`);
    }
    expect(problems).toEqual([]);
  });
});
