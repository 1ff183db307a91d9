import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Problem } from "../../src/errors.ts";
import { checkUpToDate } from "../../src/pipeline/up-to-date.ts";
import { readBuildInfo } from "../../src/output/build-info.ts";
import {
  contentSecurityPolicy,
  sharedContentSecurityPolicy,
} from "../../src/serve/security-headers.ts";
import { parsePolicy } from "../serve/header-checks.ts";
import { buildFixture } from "../helpers/catalogue.ts";
import { policyProject, SETTING } from "./policy-project.ts";

/**
 * `site/content-security.json` through whole builds with the site (hence e2e): build.json, the
 * servers' headers and the warnings; test/site-folder/policy.unit.test.ts reads and checks it.
 */

describe("a build with the setting", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let content: string;
  let site: string;
  beforeAll(async () => {
    ({ dir, content, site, cleanup } = await policyProject());
  });
  afterAll(() => cleanup?.());

  it("carries the sources in build.json to every server's headers, warns of what they leave blocked, and a change rewrites no page", async () => {
    const out = path.join(dir, "out");
    const warnings: Problem[] = [];
    const reporter = { stage: () => {}, warning: (w: Problem) => warnings.push(w) };
    await buildFixture(content, out, { site: true, reporter });
    expect(warnings.map((w) => `${path.relative(dir, w.file)}:${w.line}: ${w.message}`)).toEqual([
      `site/pages/tour.md:5: <iframe src="https://vimeo.example/1"> is blocked by the pages' Content-Security-Policy: add "https://vimeo.example" to "frame-src" in ${path.join(site, "content-security.json")}`,
    ]);
    const info = await readBuildInfo(out);
    for (const domain of info.domains) {
      expect(domain.content_security).toEqual({
        "script-src": ["https://stats.example.org"],
        "img-src": ["https://*.tiles.example:8443/maps/"],
        "frame-src": ["https://www.youtube-nocookie.com"],
      });
      expect(parsePolicy(contentSecurityPolicy(domain)).get("frame-src")).toEqual([
        "https://www.youtube-nocookie.com",
      ]);
    }
    expect(parsePolicy(sharedContentSecurityPolicy(info.domains)).get("script-src")).toContain(
      "https://stats.example.org",
    );
    const tour = await readFile(path.join(out, "domain-1.example/tour/index.html"), "utf8");

    // Another source: build.json changes, no page does (the policy is a header).
    await writeFile(
      path.join(site, "content-security.json"),
      SETTING.replace(
        '"https://www.youtube-nocookie.com"',
        '"https://www.youtube-nocookie.com", "https://vimeo.example"',
      ),
    );
    warnings.length = 0;
    const again = await buildFixture(content, out, { site: true, reporter });
    expect(warnings).toEqual([]);
    expect((await readBuildInfo(out)).domains[0]!.content_security!["frame-src"]).toEqual([
      "https://www.youtube-nocookie.com",
      "https://vimeo.example",
    ]);
    expect(again.written).toBe(2); // build.json and the inputs record
    expect(await readFile(path.join(out, "domain-1.example/tour/index.html"), "utf8")).toBe(tour);

    // Without the site, the setting still reaches build.json, and a change of it is seen.
    const api = path.join(dir, "api");
    await buildFixture(content, api, { site: false });
    expect((await readBuildInfo(api)).domains[1]!.content_security!["script-src"]).toEqual([
      "https://stats.example.org",
    ]);
    await writeFile(path.join(site, "content-security.json"), "{}\n");
    expect(
      (await checkUpToDate({ contentDir: content, outDir: api, date: "2026-11-20", site: false }))
        .current,
    ).toBeNull();
    await buildFixture(content, api, { site: false });
    expect((await readBuildInfo(api)).domains[1]!.content_security).toBeUndefined();
  });
});
