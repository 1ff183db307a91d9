import { execFileSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ZipWriter } from "../../src/util/zip.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { requireTool } from "../support/requires.ts";

/**
 * ZipWriter's archives read by independent readers: zipinfo, unzip and Python's zipfile (system
 * programs, hence e2e; test/util/zip.unit.test.ts reads them back byte by byte).
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(async () => cleanup());

const tools = ["zipinfo", "unzip", "python3"].map((tool) =>
  requireTool(tool, "the zip files' checks with independent readers"),
);

describe.runIf(tools.every((tool) => tool !== null))("ZipWriter, read by other programs", () => {
  it("stores entries as told, in whole or in chunks, and marks names that are not ASCII as UTF-8", () => {
    const file = path.join(dir, "s.zip");
    const zip = new ZipWriter(file, "2026-11-20", { level: 9 });
    zip.add("covers/a.webp", Buffer.from("already compressed"), { store: true });
    zip.startEntry("big.pf_fragment", { store: true });
    for (const piece of ["", "x".repeat(70_000), "é", "<row/>".repeat(20_000)])
      zip.chunk(Buffer.from(piece));
    zip.endEntry();
    zip.add("películas/ñandú.html", "<p>á</p>");
    zip.finish();
    // The readers agree: the methods, and the names as UTF-8.
    const listing = execFileSync("zipinfo", ["-v", file], {
      env: { ...process.env, LC_ALL: "C.UTF-8" },
    }).toString();
    expect(
      listing.match(/compression method:\s+(\w+)/g)!.map((m) => m.split(/\s+/).at(-1)),
    ).toEqual(["none", "none", "deflated"]);
    const names = execFileSync("python3", [
      "-c",
      "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
      file,
    ])
      .toString()
      .trim()
      .split("\n");
    expect(names).toEqual(["covers/a.webp", "big.pf_fragment", "películas/ñandú.html"]);
  });

  it("writes the zip64 end records when there are more entries than a plain zip lists (a large build's archive)", () => {
    const file = path.join(dir, "many.zip");
    const zip = new ZipWriter(file, "2026-11-20");
    const count = 70_000;
    for (let i = 0; i < count; i++) zip.add(`f/${i}.json`, `{"id":${i}}`, { store: i % 2 === 0 });
    zip.finish();
    // Python's zipfile and unzip read the zip64 records; every entry is there, and intact.
    const check =
      "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nn = z.namelist()\nprint(len(n), n[0], n[-1], z.read(n[-1]).decode())";
    expect(execFileSync("python3", ["-c", check, file]).toString().trim()).toBe(
      `${count} f/0.json f/${count - 1}.json {"id":${count - 1}}`,
    );
    expect(execFileSync("unzip", ["-tq", file]).toString()).toMatch(/^No errors detected/);
  });
});
