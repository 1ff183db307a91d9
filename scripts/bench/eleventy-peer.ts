/**
 * The peer of the API build: the same JSON pages built with a plain Eleventy pagination template,
 * as an Eleventy user would write it (a data file that reads the CSVs and sorts, a template that
 * paginates over the pages and stringifies each one): every listing page of every format and
 * ordering, and every retrieve document, with the same content as ours. Prints its figures as
 * JSON on the last line, like build-child.ts.
 *   tsx scripts/bench/eleventy-peer.ts CONTENT OUT DATE
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import Eleventy from "@11ty/eleventy";
import { loadCatalogue } from "../../src/content/load.ts";
import { directorObject } from "../../src/api/serialize.ts";
import { domainView, type ListedWork } from "../../src/model/domain-view.ts";

const [content, out, date] = process.argv.slice(2) as [string, string, string];
const started = performance.now();
const input = path.join(path.dirname(out), "eleventy-peer-input");
await rm(input, { recursive: true, force: true });
await mkdir(input, { recursive: true });

// The template an Eleventy user writes: one output per item, JSON.stringify of its document.
await writeFile(
  path.join(input, "pages.11ty.cjs"),
  `module.exports = class {
  data() {
    return { pagination: { data: "documents", size: 1, alias: "doc" }, permalink: (d) => d.doc.path, eleventyExcludeFromCollections: true };
  }
  render({ doc }) {
    return JSON.stringify(doc.body);
  }
};
`,
);

// The data: every page of every ordering and format and every retrieve document, as plain objects.
const catalogue = await loadCatalogue(content);
const documents: { path: string; body: object }[] = [];
for (const domain of catalogue.domains) {
  const view = domainView(catalogue, domain, date);
  const imageUrl = (rel: string) => `${domain.media_url}/${rel}`;
  const element = (listed: ListedWork) => {
    const { work, director } = listed;
    return {
      id: work.id,
      name: work.name,
      cover: imageUrl(work.cover),
      director: director === null ? null : directorObject(director, domain, imageUrl),
      audiovisual_type: work.audiovisual_type,
      is_new: listed.isNew,
      progress_loan_user: null,
      streaming: {},
      slug: work.slug,
      status_global: work.status_global,
    };
  };
  for (const listed of view.orders.name) {
    const { work, window } = listed;
    documents.push({
      path: `${domain.domain}/_api/detail/${work.id}.json`,
      body: {
        ...element(listed),
        year: work.year,
        duration: work.duration,
        created: window.from,
        expire: window.until,
      },
    });
  }
  const count = view.orders.name.length;
  const pages = Math.max(1, Math.ceil(count / 20));
  for (const format of ["plain", "api", "json"]) {
    for (const ordering of ["default", "name", "-name", "year", "-year"] as const) {
      const works = view.orders[ordering === "default" ? domain.default_ordering : ordering];
      const link = (n: number) => {
        const q = [
          format !== "plain" && `format=${format}`,
          ordering !== "default" && `ordering=${ordering}`,
          n > 1 && `page=${n}`,
        ].filter(Boolean);
        return `${domain.base_url}/api/v1/videos/audiovisuals/${q.length ? `?${q.join("&")}` : ""}`;
      };
      for (let page = 1; page <= pages; page++) {
        documents.push({
          path: `${domain.domain}/_api/list/${format}/${ordering}/${page}.json`,
          body: {
            links: {
              next: page < pages ? link(page + 1) : null,
              previous: page > 1 ? link(page - 1) : null,
            },
            trans_title: null,
            count,
            total_pages: pages,
            results: works.slice((page - 1) * 20, page * 20).map(element),
          },
        });
      }
    }
  }
}

const eleventy = new Eleventy(input, out, {
  quietMode: true,
  config(config: { addGlobalData(name: string, value: unknown): void }) {
    config.addGlobalData("documents", documents);
  },
});
// write() is missing from the declarations in src/site/eleventy-api.d.ts (the site only renders to memory).
await (eleventy as unknown as { write(): Promise<unknown> }).write();
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    seconds,
    pages: documents.length,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
);
