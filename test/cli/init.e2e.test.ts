import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkContent } from "../../src/content/load.ts";
import { watchUrl } from "../../src/site/model.ts";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { runCli } from "../reliability/helpers.ts";

/** What `catalogue init` writes, built into a whole site: the cases of init that build pages. */

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir("catalogue-init-")));
afterAll(() => cleanup?.());

describe("catalogue init, built", () => {
  it("shows a new user the optional columns: a site in two languages, synopses and a link to watch or borrow", async () => {
    const project = path.join(dir, "features");
    expect((await runCli(["init", project])).code).toBe(0);
    const content = path.join(project, "content");
    const { catalogue } = await checkContent(content);
    const [catalan, english] = catalogue!.domains;
    expect(catalan!.languages).toEqual(["es"]);
    expect(catalan!.names?.es).toBeTruthy();
    expect(catalan!.watch_url).toMatch(/\{id\}/);
    expect(english!.watch_url).toBeUndefined();
    const withSynopses = catalogue!.works.filter((w) => w.synopses !== undefined);
    expect(withSynopses.length).toBeGreaterThan(0);
    const work = withSynopses[0]!;
    const out = path.join(project, "dist");
    await buildFixture(content, out, { site: true });
    const page = (prefix: string) =>
      readFile(
        path.join(
          out,
          catalan!.domain,
          prefix,
          `audiovisual-detail/${work.id}/${work.slug}/index.html`,
        ),
        "utf8",
      );
    for (const [prefix, lang] of [
      ["", "ca"],
      ["es", "es"],
    ] as const) {
      const html = await page(prefix);
      expect(html).toContain(`<html lang="${lang}">`);
      expect(html).toContain(`<p>${work.synopses![lang]!.replace(/'/g, "&#39;")}</p>`);
      expect(html).toContain(`<p class="watch"><a href="${watchUrl(catalan!.watch_url!, work)}">`);
    }
    expect(await readFile(path.join(out, catalan!.domain, "es/index.html"), "utf8")).toContain(
      catalan!.names!.es!,
    );
  });
});
