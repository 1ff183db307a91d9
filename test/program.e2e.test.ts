import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  codePath,
  COMPILED,
  dependencyManifest,
  prebuiltBundle,
  programDigest,
} from "../src/program.ts";
import { tempDir } from "./helpers/catalogue.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-program-")));
afterAll(() => cleanup?.());

const put = async (file: string, version: string) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify({ name: path.basename(path.dirname(file)), version }));
};

describe("the running program", () => {
  it("finds a dependency where Node does: its own node_modules first, else hoisted beside the package", async () => {
    // An install: project/node_modules/{the package, its hoisted dependencies}; one nested copy.
    const pkg = path.join(dir, "project/node_modules/audiovisual-catalogue");
    await put(path.join(dir, "project/node_modules/@11ty/eleventy/package.json"), "3.1.5");
    await put(path.join(dir, "project/node_modules/sharp/package.json"), "0.33.5");
    await put(path.join(pkg, "node_modules/sharp/package.json"), "0.34.0");
    expect(dependencyManifest("@11ty/eleventy", pkg)).toEqual({
      dir: path.join(dir, "project/node_modules/@11ty/eleventy"),
      version: "3.1.5",
    });
    expect(dependencyManifest("sharp", pkg)?.version).toBe("0.34.0");
    expect(dependencyManifest("not-installed-anywhere", pkg)).toBeNull();
  });

  it("names files as it runs them: the sources under the tests, the compiled JavaScript in lib/ for the command", async () => {
    expect(COMPILED).toBe(false);
    expect(codePath(".eleventy.ts")).toBe(".eleventy.ts");
    expect(prebuiltBundle("edge-worker.js")).toBeNull();
    expect(await programDigest()).toMatch(/^[0-9a-f]{64}$/);
  });
});
