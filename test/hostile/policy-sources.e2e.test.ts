import { chmod, mkdir, readdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBuildInfo } from "../../src/output/build-info.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { cli } from "../reliability/helpers.ts";
import { placeHtml, type Fixture } from "../serve/fixture.ts";
import { builtProject, expectNoCrash, expectRefused, newProject, type Project } from "./project.ts";
import {
  headerBytes,
  rawRequest,
  startEveryServer,
  stopEveryServer,
  type Started,
} from "./servers.ts";

/**
 * `site/content-security.json` reaches every server's configuration. Directive names are own keys
 * of a fixed table; sources follow the CSP grammar (host-source, scheme-source, hashes): what it
 * forbids (controls, non-ASCII, braces, quotes, backslashes, separators) is refused by validate at
 * its line, and whatever it allows is sent literally by every server, the same bytes from all.
 */

const FILE = "site/content-security.json";

/** The setting with `sources` in script-src, one per line from line 3. */
const setting = (sources: readonly string[], directive = "script-src") =>
  `{\n  "${directive}": [\n${sources.map((s) => `    ${JSON.stringify(s)}`).join(",\n")}\n  ]\n}\n`;

describe("directive names (item 2: own keys of a fixed table)", () => {
  const project = builtProject(["--no-site"]);

  for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    it(`"${name}" is refused at its line by validate and build, output kept`, async () => {
      await project.write({
        [FILE]: `{\n  "script-src": ["https://stats.example"],\n  ${JSON.stringify(name)}: ["https://x.example"]\n}\n`,
      });
      expectRefused(await project.validate(), FILE, 3, new RegExp(name));
      const before = await project.outputDigest();
      expectRefused(await project.build("--no-site"), FILE, 3, new RegExp(name));
      expect(await project.outputDigest()).toBe(before);
    });
  }
});

/** Sources the CSP grammar does not allow: each must be refused where it is written. */
const FORBIDDEN: [string, string][] = [
  ["a NUL byte", "https://a.example/\u0000x"],
  ["U+0001", "https://a.example/\u0001x"],
  ["DEL", "https://a.example/\u007fx"],
  ["a non-ASCII path (€)", "https://a.example/€"],
  ["a non-ASCII host", "https://bücher.example"],
  ["Caddy's {env.HOME}", "https://a.example/{env.HOME}"],
  ["Caddy's {query}", "https://a.example/{query}"],
  ["a bare placeholder", "{env.AWS_SECRET_ACCESS_KEY}"],
  ["a double quote", 'https://a.example/say"hi"'],
  ["a backslash", "https://a.example/back\\slash"],
  ["a backquote", "https://a.example/`x`"],
  ["angle brackets", "https://a.example/<x>"],
  ["a line break (header injection)", "https://a.example/x\r\nSet-Cookie: a=b"],
  ["a directive separator", "https://a.example/x;script-src *"],
  ["a policy separator", "https://a.example/x,script-src *"],
  ["a bad percent-escape", "https://a.example/%zz"],
];

describe("sources the CSP grammar forbids (item 2: refused by validate at their line)", () => {
  let project: Project;
  beforeAll(async () => {
    project = await newProject();
  });
  afterAll(() => project?.cleanup());

  for (const [name, source] of FORBIDDEN) {
    it(`${name}: ${JSON.stringify(source)} is refused at line 3`, async () => {
      await project.write({ [FILE]: setting([source]) });
      expectRefused(await project.validate(), FILE, 3);
    });
  }
});

/**
 * Every character class at once: those validate refuses must be refused at their own line; the
 * others are built, and every server must send the same Content-Security-Policy bytes, with each
 * source in them as written (no `$…` or `{…}` expanded, nothing dropped or re-encoded).
 */
const EVERY_CLASS = [
  ...FORBIDDEN.map(([, source]) => source),
  "https://a.example/$args",
  "https://a.example/$request_uri",
  "https://a.example/$no_such_variable",
  "https://a.example/it's",
  "https://a.example/%7Benv.HOME%7D",
  "https://a.example/~user/(x)!*+=@:",
];

describe("the same request to every server (item 2: the same bytes from every server)", () => {
  let fx: Fixture;
  let started: Started[] = [];
  let refusedLines: number[] = [];
  let accepted: string[] = [];
  let validation: Awaited<ReturnType<typeof cli>>;

  beforeAll(async () => {
    const { dir, cleanup } = await tempDir("catalogue-hostile-csp-");
    // nginx started as root runs its workers as "nobody": they must be able to read the build.
    await chmod(dir, 0o755);
    const content = await generatedContent(dir, { works: 40, domains: 2 });
    await mkdir(path.join(dir, "site"));
    await writeFile(path.join(dir, FILE), setting(EVERY_CLASS));
    validation = await cli(["validate", "--content", "content"], { cwd: dir });
    refusedLines = [
      ...validation.stderr.matchAll(
        new RegExp(`^(?:catalogue [a-z]+: )?${FILE.replace(/[.]/g, "\\.")}:(\\d+): `, "gm"),
      ),
    ].map((m) => Number(m[1]));
    accepted = EVERY_CLASS.filter((_, i) => !refusedLines.includes(3 + i));
    await writeFile(path.join(dir, FILE), setting(accepted));
    const dist = path.join(dir, "dist");
    await buildFixture(content, dist);
    await placeHtml(dist);
    fx = {
      dir,
      content,
      dist,
      info: await readBuildInfo(dist),
      read: async (rel) => readFile(path.join(await realpath(dist), rel)),
      listedIds: async (domain) =>
        (await readdir(path.join(dist, domain, "_api/detail"))).map((n) =>
          Number(n.replace(/\.json$/, "")),
        ),
      cleanup,
    };
    started = await startEveryServer(fx);
  }, 300_000);

  afterAll(async () => {
    await stopEveryServer(started);
    await fx?.cleanup();
  });

  it("serve, nginx, nginx with snippets, Caddy, the Worker and CloudFront send the same policy bytes, each accepted source literally", async () => {
    // validate refuses a source only at its own line, with exit 1 (never 2).
    expectNoCrash(validation);
    expect(validation.code).toBe(refusedLines.length > 0 ? 1 : 0);
    expect(
      refusedLines.every((line) => line >= 3 && line < 3 + EVERY_CLASS.length),
      validation.stderr,
    ).toBe(true);
    const problems: string[] = [];
    const answers = new Map<string, Map<string, Buffer | null>>();
    const compared = [
      "content-security-policy",
      "referrer-policy",
      "x-content-type-options",
      "strict-transport-security",
    ];
    for (const entry of started) {
      if ("failed" in entry) {
        problems.push(
          `${entry.name} did not start: ${entry.failed.split("\n").slice(0, 3).join(" / ")}`,
        );
        continue;
      }
      // A query string a server might copy into the header ($args, {query}).
      const answer = await rawRequest(
        entry.server.port,
        "domain-1.example",
        "/api/v1/videos/audiovisuals/?format=json&leak=QUERY-MARK",
      ).catch((error: Error) => error);
      if (answer instanceof Error) {
        problems.push(`${entry.name}: ${answer.message}`);
        continue;
      }
      if (answer.status !== 200) problems.push(`${entry.name}: status ${answer.status}`);
      answers.set(entry.name, new Map(compared.map((name) => [name, headerBytes(answer, name)])));
    }
    for (const [name, headers] of answers) {
      const policy = headers.get("content-security-policy");
      if (policy === null || policy === undefined) {
        problems.push(`${name}: no Content-Security-Policy`);
        continue;
      }
      for (const source of accepted) {
        if (!policy.includes(Buffer.from(` ${source}`)))
          problems.push(`${name}: ${JSON.stringify(source)} is not in the policy as written`);
      }
      if (policy.includes("QUERY-MARK"))
        problems.push(`${name}: the request's query is in the policy`);
    }
    // The same bytes from every server: one group of servers per distinct value.
    for (const header of compared) {
      const groups = new Map<string, string[]>();
      for (const [name, headers] of answers) {
        const key = JSON.stringify(headers.get(header)?.toString("latin1") ?? null);
        groups.set(key, [...(groups.get(key) ?? []), name]);
      }
      if (groups.size > 1)
        problems.push(
          `${header} differs: ${[...groups].map(([value, names]) => `[${names.join(", ")}] ${value}`).join(" | ")}`,
        );
    }
    expect(problems).toEqual([]);
  });
});
