import { rm } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD, builtProject, expectNunjucksRefused, expectRefused } from "./project.ts";

/**
 * A template runs within bounds of time and memory: a loop of two billion, two nested loops of
 * 20,000 and a string doubled 40 times each end the build with exit 1 and the template's
 * `FILE:LINE` within 60 s (not V8's fatal error, not forever), the previous output kept.
 * Each build is killed at 60 s: a template without bounds fails the test instead of hanging it.
 * Doubled 40 times a string passes V8's longest (2^29 characters) and throws at once; doubled 27
 * times and printed it is 2^28 characters per page, which took 8 GB before V8 gave up: that build
 * runs with a heap capped at 1 GB (a small catalogue needs a fraction of it), so a template
 * without a memory bound fails here rather than exhausting the machine.
 */

const LIMIT_MS = 60_000;
const project = builtProject();

const LIQUID: [string, string][] = [
  ["a loop of 2·10⁹", "{% for i in (1..2000000000) %}x{% endfor %}"],
  [
    "two nested loops of 20,000",
    "{% for i in (1..20000) %}{% for j in (1..20000) %}{% endfor %}{% endfor %}",
  ],
  [
    "a string doubled 40 times",
    '{% assign s = "xx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}',
  ],
  [
    "a string doubled 27 times and printed",
    '{% assign s = "xx" %}{% for i in (1..27) %}{% assign s = s | append: s %}{% endfor %}{{ s }}',
  ],
];

const NUNJUCKS: [string, string][] = [
  ["a loop of 2·10⁹", "{% for i in range(0, 2000000000) %}x{% endfor %}"],
  [
    "two nested loops of 20,000",
    "{% for i in range(0, 20000) %}{% for j in range(0, 20000) %}{% endfor %}{% endfor %}",
  ],
  [
    "a string doubled 40 times",
    '{% set s = "xx" %}{% for i in range(0, 40) %}{% set s = s + s %}{% endfor %}{{ s | length }}',
  ],
  [
    "a string doubled 27 times and printed",
    '{% set s = "xx" %}{% for i in range(0, 27) %}{% set s = s + s %}{% endfor %}{{ s }}',
  ],
];

/** The build's heap, capped: a template without a memory bound is V8's fatal error here, not 8 GB taken from the machine. */
const CAPPED_HEAP = {
  ...process.env,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=1024`.trim(),
};

async function expectBounded(file: string, template: string) {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
  const before = await project.outputDigest();
  // The template on line 2 of a footer rendered on every page.
  await project.write({ [file]: `<footer>\n${template}\n</footer>\n` });
  const built = await project.runTimed(BUILD, LIMIT_MS, CAPPED_HEAP);
  expect(built.killed, `still running after ${LIMIT_MS / 1000} s`).toBe(false);
  expect(built.signal, `ended by ${built.signal}:\n${built.stderr.slice(-1500)}`).toBeNull();
  expect(built.seconds).toBeLessThan(LIMIT_MS / 1000);
  if (file.endsWith(".njk")) expectNunjucksRefused(built, file);
  else expectRefused(built, file, 2);
  expect(await project.outputDigest()).toBe(before);
}

describe("Liquid templates without bounds (item 1: time and memory limits per build)", () => {
  for (const [name, template] of LIQUID) {
    it(
      `${name}: exit 1 at the template's line within 60 s`,
      () => expectBounded("site/_includes/footer.liquid", template),
      LIMIT_MS + 30_000,
    );
  }
});

describe("Nunjucks templates without bounds (item 1: limited, or Nunjucks refused naming Liquid)", () => {
  for (const [name, template] of NUNJUCKS) {
    it(
      `${name}: exit 1 naming the template within 60 s`,
      () => expectBounded("site/_includes/footer.njk", template),
      LIMIT_MS + 30_000,
    );
  }
});
