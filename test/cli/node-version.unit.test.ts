import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * The check bin/catalogue.js makes before anything loads, against package.json's `engines` read
 * by npm's own range parser: the two say the same of every version around each boundary.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const { isSupported, refusal } = createRequire(import.meta.url)("../../bin/node-version.js") as {
  isSupported: (version: string) => boolean;
  refusal: (version: string) => string | null;
};

const VERSIONS = [
  "18.20.8",
  "20.0.0",
  "20.18.3",
  "20.19.0",
  "20.20.2",
  "21.7.3",
  "22.0.0",
  "22.11.0",
  "22.12.0",
  "22.23.3",
  "23.11.1",
  "24.0.0",
  "24.9.0",
  "25.2.1",
  "26.0.0",
];

describe("the Node versions the command accepts", () => {
  it("are the versions package.json's engines admits", async () => {
    const { engines } = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as {
      engines: { node: string };
    };
    for (const version of VERSIONS)
      expect(isSupported(version), version).toBe(semver.satisfies(version, engines.node));
    // The boundaries are really crossed: some of the list is refused, some accepted.
    expect(VERSIONS.filter(isSupported).length).toBeGreaterThan(3);
    expect(VERSIONS.filter((v) => !isSupported(v)).length).toBeGreaterThan(3);
  });

  it("refuses any other in one line that names the version and what is needed", () => {
    expect(refusal("20.20.2")).toBeNull();
    const line = refusal("22.11.0");
    expect(line).toMatch(
      /^catalogue needs Node\.js 20\.19 .* 24 and later; this is Node\.js 22\.11\.0$/,
    );
  });
});
