import { describe, expect, it } from "vitest";
import { builtProject, domainsCsv, expectRefused } from "./project.ts";

/**
 * A base_url or media_url that a server cannot serve, or that breaks the URLs built on it, is
 * refused by `validate` at its line (and so by `build`, which leaves the previous output whole):
 * today `serve` and every `config` refuse some of them with no line, after a build that passed
 * `--strict`, and `//` crashes the build.
 */

const project = builtProject(["--no-site"]);

async function expectColumnRefused(csv: string, line: number, column: string) {
  await project.write({ "content/domains.csv": csv });
  expectRefused(await project.validate(), "content/domains.csv", line, new RegExp(column));
  const before = await project.outputDigest();
  expectRefused(await project.build("--no-site"), "content/domains.csv", line, new RegExp(column));
  expect(await project.outputDigest()).toBe(before);
}

const BASE_URLS: [string, string][] = [
  ["an empty segment (//)", "https://uno.example/a//b"],
  ["a trailing empty segment", "https://uno.example/cat//"],
  ["a semicolon", "https://uno.example/a;b"],
  ["a dollar sign", "https://uno.example/a$b"],
  ["a quote", "https://uno.example/it's"],
  ["a percent-encoded space", "https://uno.example/a%20b"],
  ["braces", "https://uno.example/{env.HOME}"],
  ["a bare # at the end", "https://uno.example/cat#"],
  ["a bare ? at the end", "https://uno.example/cat?"],
];

describe("base_url a server cannot serve (items 2 and 4: refused by validate at its line)", () => {
  for (const [name, url] of BASE_URLS) {
    it(`${name}: ${url}`, () => expectColumnRefused(domainsCsv({ base_url: url }), 2, "base_url"));
  }
});

const MEDIA_URLS: [string, string][] = [
  ["a port on a media host that nothing serves", "https://media.example:8443/covers"],
  ["an empty segment (//)", "https://media.example/a//covers"],
  ["a semicolon", "https://media.example/a;b"],
  ["a dollar sign", "https://media.example/$uri"],
  ["a percent-encoded space", "https://media.example/a%20b"],
  ["a bare # at the end", "https://media.example/covers#"],
  ["a bare ? at the end", "https://media.example/covers?"],
];

describe("media_url a server cannot serve (items 2 and 4: refused by validate at its line)", () => {
  for (const [name, url] of MEDIA_URLS) {
    it(`${name}: ${url}`, () =>
      expectColumnRefused(domainsCsv({}, { media_url: url }), 3, "media_url"));
  }
});
