import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/catalogue.ts";
import { startFaultProxy, type FaultProxy } from "../publish/fault-proxy.ts";
import { startS3rver, type S3rver } from "../support/s3.ts";
import type { CliResult } from "../reliability/helpers.ts";
import { builtProject, expectNoCrash, newProject } from "./project.ts";

/**
 * `publish --to` a target that cannot be one: exit 1 with a message naming it, before anything
 * is written or any request is sent (no exit 2, no lease in another bucket). S3 behind a proxy
 * that counts the requests it forwards to s3rver on 127.0.0.1.
 */

const project = builtProject(["--no-site"]);

/** Exit 1, no stack trace, a line of the command's naming the target (or its `part`) and saying what is wrong (`about`). */
function expectTargetRefused(result: CliResult, target: string, about: RegExp, part = target) {
  expectNoCrash(result);
  expect(result.code, result.stderr).toBe(1);
  const lines = result.stderr.split("\n").filter((l) => l.includes(target) || l.includes(part));
  expect(lines, `no line names ${target}:\n${result.stderr}`).not.toEqual([]);
  expect(
    lines.some((l) => about.test(l)),
    `no line naming ${target} is about ${about}:\n${result.stderr}`,
  ).toBe(true);
}

describe("archive targets (item 4: no exit 2 for a bad target)", () => {
  for (const name of ["x.zip", "x.tar.gz"]) {
    it(`an existing folder named ${name} is refused, its files left alone`, async () => {
      await mkdir(path.join(project.dir, name), { recursive: true });
      await writeFile(path.join(project.dir, name, "keep.txt"), "mine\n");
      const result = await project.run(["publish", "--dir", "dist", "--to", name]);
      expectTargetRefused(result, name, /folder|directory/i);
      expect(await readdir(path.join(project.dir, name))).toEqual(["keep.txt"]);
      expect(await readFile(path.join(project.dir, name, "keep.txt"), "utf8")).toBe("mine\n");
    });
  }
});

describe("S3 targets (item 4: bucket names and keys checked before any request)", () => {
  let s3: S3rver;
  let proxy: FaultProxy;
  beforeAll(async () => {
    s3 = await startS3rver(["etc", "bucket", "other", "site"]);
    proxy = await startFaultProxy(s3.endpoint, 39);
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await s3?.stop();
  });

  const TARGETS: [string, string, RegExp][] = [
    ["s3://../etc", "a bucket named ..", /bucket|\.\./i],
    ["s3://bucket/../other", "a .. key segment", /\.\.|segment|key|prefix/i],
    ["s3://bucket/site/../../other", "two .. key segments", /\.\.|segment|key|prefix/i],
    ["s3://bucket/./site", "a . key segment", /segment|key|prefix|\./i],
    ["s3://bucket/site/./prod", "a . key segment inside", /segment|key|prefix|\./i],
    ["s3://ab/site", "a bucket name of two characters", /bucket/i],
    ["s3://-bucket/site", "a bucket name starting with -", /bucket/i],
    ["s3://a..b/site", "a bucket name with ..", /bucket/i],
    ["s3://192.168.0.1/site", "a bucket name like an IP address", /bucket/i],
  ];
  for (const [target, name, about] of TARGETS) {
    it(`${name} (${target}) is refused before any request`, async () => {
      const forwarded = proxy.forwarded;
      const writes = proxy.writes.length;
      const result = await project.run(
        ["publish", "--dir", "dist", "--to", target, "--endpoint", proxy.endpoint],
        { PATH: process.env.PATH, ...s3.env },
      );
      expectTargetRefused(result, target, about, target.slice("s3://".length).split("/")[0]);
      expect(
        proxy.writes.slice(writes).map((w) => `${w.op} ${w.key}`),
        "objects were written",
      ).toEqual([]);
      expect(proxy.forwarded - forwarded, "requests reached the store").toBe(0);
    });
  }
});

describe("the documented work.liquid example, then an offline archive (item 4)", () => {
  /** The example of docs/site.md, as a library copies it. */
  async function documentedWorkTemplate(): Promise<string> {
    const docs = await readFile(path.join(ROOT, "docs/site.md"), "utf8");
    const start = docs.indexOf("{% comment %} _includes/work.liquid {% endcomment %}");
    expect(start, "docs/site.md has no work.liquid example").toBeGreaterThan(-1);
    const body = docs.slice(start, docs.indexOf("{% comment %}", start + 10));
    expect(body).toContain("<h1>");
    return body;
  }

  it("builds and publishes --to x.zip (or the build refuses the template, naming it)", async () => {
    const site = await newProject({}, { "_includes/work.liquid": await documentedWorkTemplate() });
    try {
      const built = await site.build();
      expectNoCrash(built);
      if (built.code === 1) {
        expect(built.stderr).toMatch(
          /^(catalogue build: )?site\/_includes\/work\.liquid(:\d+)?: /m,
        );
        return;
      }
      const published = await site.run(["publish", "--dir", "dist", "--to", "copy.zip"]);
      expectNoCrash(published);
      expect(published.code, published.stderr).toBe(0);
      expect(existsSync(path.join(site.dir, "copy.zip"))).toBe(true);
      expect((await stat(path.join(site.dir, "copy.zip"))).size).toBeGreaterThan(0);
    } finally {
      await site.cleanup();
    }
  }, 120_000);
});
