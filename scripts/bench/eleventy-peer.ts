/**
 * The peer of the API build: the same JSON pages built with a plain Eleventy pagination template,
 * as an Eleventy user would write it (a data file that reads the CSVs and sorts, a template that
 * paginates over the chunks and stringifies each page). Prints its figures as JSON on the last
 * line, like build-child.ts.
 *   tsx scripts/bench/eleventy-peer.ts CONTENT OUT DATE
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import Eleventy from "@11ty/eleventy";
import { loadCatalogue } from "../../src/content/load.ts";
import { domainView } from "../../src/model/listing.ts";

const [content, out, date] = process.argv.slice(2) as [string, string, string];
const started = performance.now();
const input = path.join(path.dirname(out), "eleventy-peer-input");
await rm(input, { recursive: true, force: true });
await mkdir(input, { recursive: true });

// The template an Eleventy user writes: one page per chunk of 20, JSON.stringify of the envelope.
await writeFile(
  path.join(input, "pages.11ty.cjs"),
  `module.exports = class {
  data() {
    return { pagination: { data: "chunks", size: 1, alias: "chunk" }, permalink: (d) => d.chunk.path, eleventyExcludeFromCollections: true };
  }
  render({ chunk }) {
    return JSON.stringify({ links: chunk.links, trans_title: null, count: chunk.count, total_pages: chunk.total_pages, results: chunk.results });
  }
};
`,
);

// The data: every page of every ordering and format, as plain objects.
const catalogue = await loadCatalogue(content);
const chunks: object[] = [];
for (const domain of catalogue.domains) {
  const view = domainView(catalogue, domain, date);
  const count = view.orders.name.length;
  const pages = Math.max(1, Math.ceil(count / 20));
  for (const format of ["plain", "api", "json"]) {
    for (const ordering of ["default", "name", "-name", "year", "-year"] as const) {
      const works = view.orders[ordering === "default" ? domain.default_ordering : ordering];
      const link = (n: number) => {
        const q = [format !== "plain" && `format=${format}`, ordering !== "default" && `ordering=${ordering}`, n > 1 && `page=${n}`].filter(Boolean);
        return `${domain.base_url}/api/v1/videos/audiovisuals/${q.length ? `?${q.join("&")}` : ""}`;
      };
      for (let page = 1; page <= pages; page++) {
        chunks.push({
          path: `${domain.domain}/_api/list/${format}/${ordering}/${page}.json`,
          links: { next: page < pages ? link(page + 1) : null, previous: page > 1 ? link(page - 1) : null },
          count,
          total_pages: pages,
          results: works.slice((page - 1) * 20, page * 20).map(({ work, director, isNew }) => ({
            id: work.id,
            name: work.name,
            cover: `${domain.media_url}/${work.cover}`,
            director,
            audiovisual_type: work.audiovisual_type,
            is_new: isNew,
            progress_loan_user: null,
            streaming: {},
            slug: work.slug,
            status_global: work.status_global,
          })),
        });
      }
    }
  }
}

const eleventy = new Eleventy(input, out, {
  quietMode: true,
  config(config: { addGlobalData(name: string, value: unknown): void }) {
    config.addGlobalData("chunks", chunks);
  },
});
// write() is missing from the declarations in src/site/eleventy-api.d.ts (the site only renders to memory).
await (eleventy as unknown as { write(): Promise<unknown> }).write();
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ seconds, pages: chunks.length, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
