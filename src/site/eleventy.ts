import path from "node:path";
import Eleventy from "@11ty/eleventy";
import { CODE_ROOT, codePath, COMPILED } from "../program.ts";
import { SiteData, type SitePage } from "./model.ts";

/**
 * The template entry: `.eleventy.ts` in the sources, compiled to lib/.eleventy.js in the package.
 * Eleventy 3.1 does not look for a TypeScript configuration by itself: it is named explicitly.
 */
const ELEVENTY_CONFIG = path.join(CODE_ROOT, codePath(".eleventy.ts"));
// The input folder holds no template files (the template is virtual); Eleventy only scans it.
const INPUT = path.join(CODE_ROOT, "src/site/templates");
// Eleventy never writes here: pages are taken from the transform below and written by the
// OutputTree. A path that cannot be created makes any write attempt fail loudly.
const NEVER_WRITTEN = "/nonexistent/catalogue-eleventy-output";

let tsLoader = false;
/**
 * Eleventy imports the configuration with Node's own `import()`: running from the sources (tests,
 * `npm run dev`), `.eleventy.ts` needs tsx's loader, a development dependency. The compiled
 * program imports plain JavaScript and never loads tsx.
 */
async function ensureTypeScriptLoader() {
  if (COMPILED || tsLoader) return;
  const { register } = await import("tsx/esm/api");
  register();
  tsLoader = true;
}

/**
 * Eleventy's pages per run. Eleventy holds every page of a run (its data, template instance and
 * pagination entry) until the run ends, so a large domain's pages in one run held too much
 * memory; a run costs time to start, so runs are not much smaller.
 */
const PAGES_PER_RUN = 5000;

type PageSink = (rel: string, html: string) => Promise<void>;

/**
 * Renders the pages, in Eleventy runs of at most PAGES_PER_RUN Eleventy pages, and hands each one,
 * as soon as it is rendered, to `sink` with its output path (relative to the output folder).
 * Returns the number of pages.
 *
 * Each entry is one page of a domain in one or more language versions of its site
 * (`versionEntries`), and is one page for Eleventy, which renders every version in turn. A page's
 * versions differ only in their texts and links: rendering them together spares Eleventy's work
 * for each page of the site (its template instance, data and output path, a large part of a
 * page's time) for every language after the first.
 */
export async function renderPages(
  entries: SitePage[][],
  sink: PageSink,
  perRun = PAGES_PER_RUN,
): Promise<number> {
  let count = 0;
  for (let start = 0; start < entries.length; start += perRun)
    count += await renderRun(entries.slice(start, start + perRun), sink);
  return count;
}

/**
 * The pages of a domain's versions (one list per version, each in its planned order) as entries:
 * the versions of one page (the same folder) together, in the order each first comes.
 */
export function versionEntries(versions: SitePage[][]): SitePage[][] {
  const entries = new Map<string | null, SitePage[]>();
  for (const pages of versions) {
    for (const page of pages) {
      const entry = entries.get(page.dir);
      if (entry === undefined) entries.set(page.dir, [page]);
      else entry.push(page);
    }
  }
  return [...entries.values()];
}

/** One Eleventy run over the entries. */
async function renderRun(entries: SitePage[][], sink: PageSink): Promise<number> {
  // Nothing changed (every page kept): Eleventy would still start, load its configuration and scan.
  if (entries.length === 0) return 0;
  await ensureTypeScriptLoader();
  let count = 0;
  const run = new SiteData(entries, async (rel, html) => {
    await sink(rel, html);
    count++;
  });
  const eleventy = new Eleventy(INPUT, NEVER_WRITTEN, {
    quietMode: true,
    configPath: ELEVENTY_CONFIG,
    config(cfg) {
      cfg.addGlobalData("catalogue", run);
      // The last step of each page: hand it over, and keep no copy in Eleventy's results
      // (57,000 pages would otherwise stay in memory until the run ends).
      cfg.addTransform("catalogue-output", async function (content) {
        const out = this.page.outputPath;
        if (out === false || run.failure !== null) return "";
        try {
          await run.output(path.relative(NEVER_WRITTEN, out).split(path.sep).join("/"), content);
        } catch (error) {
          run.failure = error;
        }
        return "";
      });
    },
  });
  await eleventy.toJSON();
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a caught error, rethrown as it came
  if (run.failure !== null) throw run.failure;
  return count;
}
