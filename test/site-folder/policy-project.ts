import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { generatedContent, tempDir } from "../helpers/catalogue.ts";

/** A setting of `site/content-security.json` that allows an embedded player, a script and tiles. */
export const SETTING = `{
  "frame-src": ["https://www.youtube-nocookie.com"],
  "script-src": ["https://stats.example.org"],
  "img-src": ["https://*.tiles.example:8443/maps/"]
}
`;

export interface PolicyProject {
  dir: string;
  content: string;
  site: string;
  cleanup: () => Promise<void>;
}

/**
 * A generated catalogue with a site folder holding SETTING and a page with two iframes: one the
 * setting allows, one it leaves blocked (policy.unit.test.ts and policy-builds.e2e.test.ts).
 */
export async function policyProject(): Promise<PolicyProject> {
  const { dir, cleanup } = await tempDir("catalogue-policy-");
  const content = await generatedContent(dir, { works: 20, domains: 2 });
  const site = path.join(dir, "site");
  await mkdir(path.join(site, "pages"), { recursive: true });
  await writeFile(path.join(site, "content-security.json"), SETTING);
  await writeFile(
    path.join(site, "pages", "tour.md"),
    '---\ntitle: Tour\n---\n<iframe src="https://www.youtube-nocookie.com/embed/abc" title="Tour"></iframe>\n<iframe src="https://vimeo.example/1" title="Other"></iframe>\n',
  );
  return { dir, content, site, cleanup };
}
