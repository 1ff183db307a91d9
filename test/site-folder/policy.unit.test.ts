import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError, type Problem } from "../../src/errors.ts";
import { blockedReferences, referencesIn } from "../../src/site/folder/blocked.ts";
import { allows, mergeSources, pagePolicy, parsePolicySetting } from "../../src/web/policy.ts";
import { parsePolicy } from "../serve/header-checks.ts";
import { buildFixture } from "../helpers/catalogue.ts";
import { policyProject, SETTING } from "./policy-project.ts";

/**
 * `site/content-security.json` (docs/site.md "Content security"): the sources a library adds to
 * its pages' policy, checked with their lines, carried in build.json to every server, and what the
 * library's own files load checked against the policy, so that nothing is blocked silently.
 */

describe("the setting", () => {
  it("is read with each problem on its line: unknown or fixed directives, unsafe and malformed sources, bad JSON", () => {
    const problems: Problem[] = [];
    const text = `{
  "frame-src": ["https://ok.example"],
  "frame-ancestors": ["https://evil.example"],
  "scripts": ["https://stats.example.org"],
  "script-src": ["'unsafe-inline'", "*", "stats.example.org"],
  "img-src": "https://one.example",
  "connect-src": ["data:"]
}`;
    const sources = parsePolicySetting("site/content-security.json", text, problems);
    expect(sources).toEqual({ "frame-src": ["https://ok.example"] });
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [
        3,
        expect.stringMatching(
          /^"frame-ancestors" stays as the site needs it; the directives a library may extend are script-src, /,
        ),
      ],
      [
        4,
        expect.stringMatching(
          /^unknown directive "scripts": the directives a library may extend are /,
        ),
      ],
      [
        5,
        expect.stringMatching(
          /^"script-src": "'unsafe-inline'": 'unsafe-inline' would let any injected text run: put the script or style in a file under site\/assets\//,
        ),
      ],
      [5, expect.stringMatching(/^"script-src": "\*": "\*" allows every host/)],
      [
        5,
        expect.stringMatching(
          /^"script-src": "stats.example.org": not a source: write an origin like "https:\/\/stats.example.org"/,
        ),
      ],
      [6, expect.stringMatching(/^"img-src": expected a list of sources/)],
      [
        7,
        expect.stringMatching(
          /^"connect-src": "data:": data: in connect-src would let any injected text run or load$/,
        ),
      ],
    ]);
    const broken: Problem[] = [];
    parsePolicySetting(
      "f.json",
      '{\n  "frame-src": ["https://ok.example"],\n  "img-src" 2\n}',
      broken,
    );
    expect(broken).toHaveLength(1);
    expect(broken[0]).toMatchObject({ file: "f.json", line: 3 });
    expect(broken[0]!.message).toMatch(/^not valid JSON/);
  });

  it("takes directive names as data (never a property of an object) and sources in CSP's grammar, each refused at its own line", () => {
    const problems: Problem[] = [];
    const text = `{
  "constructor": ["https://a.example"],
  "__proto__": ["https://a.example"],
  "toString": ["https://a.example"],
  "img-src": [
    "https://ok.example/it's/(x)!*+=@:/%7Bq%7D/~u",
    "https://a.example/$args",
    "https://a.example/{env.HOME}",
    "https://a.example/\\u0000",
    "https://a.example/\\u20ac",
    "https://b\\u00fccher.example",
    "https://a.example/%zz",
    "https://a.example/a\\\\b",
    "https://ok.example/it's/(x)!*+=@:/%7Bq%7D/~u"
  ]
}`;
    const sources = parsePolicySetting("f.json", text, problems);
    // Found at their lines whether written escaped or not, each occurrence of a repeated one too.
    expect(sources).toEqual({ "img-src": ["https://ok.example/it's/(x)!*+=@:/%7Bq%7D/~u"] });
    expect(Object.getPrototypeOf(sources)).toBe(Object.prototype);
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [2, expect.stringMatching(/^unknown directive "constructor"/)],
      [3, expect.stringMatching(/^unknown directive "__proto__"/)],
      [4, expect.stringMatching(/^unknown directive "toString"/)],
      [7, expect.stringMatching(/"\$" cannot be in a source's path \(nginx would read a variable/)],
      [
        8,
        expect.stringMatching(/"\{" cannot be in a source's path \(Caddy would read a placeholder/),
      ],
      [9, expect.stringMatching(/the control character U\+0000 cannot be in a source's path/)],
      [10, expect.stringMatching(/"€" cannot be in a source's path/)],
      [
        11,
        expect.stringMatching(
          /the host is not ASCII: write it in its punycode form \(xn--bcher-kva\.example\)/,
        ),
      ],
      [12, expect.stringMatching(/"%" in a path starts an escape of two hex digits/)],
      [13, expect.stringMatching(/"\\\\" cannot be in a source's path/)],
    ]);
    // Merged sources keep the same rule: a directive's name is looked up as data.
    expect(mergeSources([{ constructor: ["x"] }, { "img-src": ["https://a.example"] }])).toEqual({
      "img-src": ["https://a.example"],
    });
    // Only a setting's own directives count, never what its prototype would lend.
    const lent = Object.create({ "script-src": ["https://lent.example"] }) as Record<
      string,
      string[]
    >;
    expect(pagePolicy([], lent)).not.toMatch(/lent\.example/);
  });

  it("extends the pages' policy: a directive the base leaves to default-src 'none' starts from the sources added", () => {
    const problems: Problem[] = [];
    const sources = parsePolicySetting("f.json", SETTING, problems);
    expect(problems).toEqual([]);
    const policy = parsePolicy(pagePolicy(["https://media.example"], sources));
    expect(policy.get("frame-src")).toEqual(["https://www.youtube-nocookie.com"]);
    expect(policy.get("script-src")).toEqual(["'self'", "https://stats.example.org"]);
    expect(policy.get("img-src")).toEqual([
      "'self'",
      "data:",
      "https://media.example",
      "https://*.tiles.example:8443/maps/",
    ]);
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    // Without a setting, the policy is what it was.
    expect(pagePolicy([])).not.toMatch(/frame-src|media-src|worker-src/);
  });

  it("matches URLs as a browser does: schemes, subdomain wildcards, ports, path prefixes", () => {
    const page = new URL("https://library.example/cataleg/");
    const extra = {
      "img-src": ["https://*.tiles.example:8443/maps/"],
      "frame-src": ["https://www.youtube-nocookie.com/embed/x"],
      "media-src": ["https:"],
    };
    const ok = (directive: string, url: string) =>
      allows(directive, new URL(url), page, ["https://media.example"], extra);
    expect(ok("img-src", "https://a.tiles.example:8443/maps/1.png")).toBe(true);
    expect(ok("img-src", "https://tiles.example:8443/maps/1.png")).toBe(false);
    expect(ok("img-src", "https://a.tiles.example/maps/1.png")).toBe(false);
    expect(ok("img-src", "https://a.tiles.example:8443/other/1.png")).toBe(false);
    expect(ok("img-src", "https://media.example/c/1.jpeg")).toBe(true);
    expect(ok("img-src", "https://library.example/x.png")).toBe(true);
    expect(ok("frame-src", "https://www.youtube-nocookie.com/embed/x")).toBe(true);
    expect(ok("frame-src", "https://www.youtube-nocookie.com/embed/xy")).toBe(false);
    expect(ok("frame-src", "https://library.example/inner/")).toBe(false); // frame-src has no 'self'
    expect(ok("media-src", "https://anything.example/v.mp4")).toBe(true);
    expect(ok("media-src", "http://anything.example/v.mp4")).toBe(false);
  });
});

describe("what the library's files load", () => {
  const domains = [
    {
      domain: "uno.example",
      base_url: "https://uno.example",
      media_url: "https://uno.example/media",
    },
    {
      domain: "dos.example",
      base_url: "https://dos.example/cataleg",
      media_url: "https://img.example/dos",
    },
  ];
  const check = (file: string, text: string, extra = {}) =>
    blockedReferences(referencesIn(file, text), domains, extra, "site/content-security.json").map(
      (w) => `${w.line}: ${w.message}`,
    );

  it("warns of each thing the policy blocks, with its line and what would allow it", () => {
    const page = [
      "---",
      "title: Visit us",
      "---",
      '<iframe src="https://www.youtube.com/embed/abc" title="Tour"></iframe>',
      "![Map](https://maps.example/where.png)",
      '<p style="color: red">Closed on Sunday</p>',
      "<script>window.hours = 9;</script>",
      '<img src="https://img.example/dos/logo.png" alt="">',
      '<img src="{{ site.logo.src }}" alt=""><a href="/about/">About</a><img src="../assets/map.png" alt="">',
      '<button onclick="go()">Go</button><object data="x.swf"></object>',
    ].join("\n");
    const warnings = check("site/pages/visit.md", page);
    expect(warnings).toEqual([
      `4: <iframe src="https://www.youtube.com/embed/abc"> is blocked by the pages' Content-Security-Policy: add "https://www.youtube.com" to "frame-src" in site/content-security.json`,
      `6: <p style="color: red"> is blocked by the pages' Content-Security-Policy: style attributes are inline styles: give the element a class and style it in site/assets/site.css`,
      expect.stringMatching(
        /^7: <script>…<\/script> is blocked by the pages' Content-Security-Policy: move it into a script file under site\/assets\/ and link it with <script src>, or add its hash "'sha256-[A-Za-z0-9+/]+=*'" to "script-src" in site\/content-security.json$/,
      ),
      // dos.example's covers come from img.example: allowed there, not on uno.example.
      `8: <img src="https://img.example/dos/logo.png"> is blocked by the pages' Content-Security-Policy on uno.example: add "https://img.example" to "img-src" in site/content-security.json`,
      `10: <button onclick="…"> is blocked by the pages' Content-Security-Policy: event handler attributes are inline scripts: attach the handler from a script file under site/assets/`,
      `10: <object> is blocked by the pages' Content-Security-Policy: plugins are never allowed (object-src 'none'): use <video>, <audio> or <iframe>`,
      `5: ![Map](https://maps.example/where.png) is blocked by the pages' Content-Security-Policy: add "https://maps.example" to "img-src" in site/content-security.json`,
    ]);
    // The hash it suggests allows that very script; the sources named allow the rest.
    const hash = /"('sha256-[^']+')"/.exec(warnings[2] as string)![1]!;
    const allowed = check("site/pages/visit.md", page, {
      "frame-src": ["https://www.youtube.com"],
      "script-src": [hash],
      "img-src": ["https://img.example", "https://maps.example"],
    });
    expect(allowed.map((w) => w.slice(0, w.indexOf(" is blocked")))).toEqual([
      `6: <p style="color: red">`,
      `10: <button onclick="…">`,
      `10: <object>`,
    ]);
  });

  it("reads stylesheets: fonts and images by url(), imports; a template's script with an expression gets no hash", () => {
    const css = `@import url("https://fonts.example/css?family=Sans");\n@font-face {\n  font-family: Sans;\n  src: url(https://fonts.example/sans.woff2);\n}\nbody { background: url('/assets/bg.png'); }\n.map { background: url("https://tiles.example/1.png"); }\n`;
    expect(
      check("site/assets/site.css", css).map((w) =>
        w.replace(/ is blocked by the pages' Content-Security-Policy: add/, ""),
      ),
    ).toEqual([
      `1: @import url("https://fonts.example/css?family=Sans "https://fonts.example" to "style-src" in site/content-security.json`,
      `4: url(https://fonts.example/sans.woff2) "https://fonts.example" to "font-src" in site/content-security.json`,
      `7: url("https://tiles.example/1.png") "https://tiles.example" to "img-src" in site/content-security.json`,
    ]);
    const [warning] = check(
      "site/_includes/footer.liquid",
      "<footer>\n<script>var name = {{ site.name | json }};</script>\n</footer>",
    );
    expect(warning).toMatch(/^2: <script>…<\/script> is blocked .*link it with <script src>$/);
  });
});

describe("a build with the setting", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let content: string;
  let site: string;
  beforeAll(async () => {
    ({ dir, content, site, cleanup } = await policyProject());
  });
  afterAll(() => cleanup?.());

  it("stops on a bad setting with its file and line, before writing anything, with or without the site", async () => {
    await writeFile(
      path.join(site, "content-security.json"),
      '{\n  "script-src": ["\'unsafe-eval\'"]\n}\n',
    );
    for (const withSite of [true, false]) {
      const out = path.join(dir, `bad-${withSite}`);
      const error = await buildFixture(content, out, { site: withSite }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).problems).toEqual([
        {
          file: path.join(site, "content-security.json"),
          line: 2,
          message: expect.stringMatching(
            /^"script-src": "'unsafe-eval'": 'unsafe-eval' would let any injected text run/,
          ),
        },
      ]);
      await expect(readFile(path.join(out, "_catalogue/build.json"))).rejects.toThrow();
    }
  });
});
