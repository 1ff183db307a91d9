import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { ListedWork } from "../model/listing.ts";
import { md5 } from "../output/tree.ts";
import type { Variants } from "./images.ts";
import { pagePath, type DomainSite, type SitePage } from "./model.ts";

/**
 * Page keys. A page's HTML is a function of the template code and of its data, so a key over both
 * says whether the previous build's file can be kept without rendering it (`FileSink.reuse`). A
 * key that misses something the HTML depends on would keep a stale page, so the keys are generous:
 * the whole planned page and the whole DomainSite (both hold only what pages show), every byte
 * of the code that renders them, and the versions of what else shapes the output.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The Eleventy configuration (the template) and its runner: what they import is what renders pages. */
const ENTRIES = [".eleventy.ts", "src/site/eleventy.ts"];
/** Not imported, but part of the site: included so that no change to it can be missed. */
const ASSETS = "src/site/assets";

let version: Promise<string> | undefined;

/**
 * The version of the site's rendering: a digest of the source files the templates are made of
 * (found by following their imports, so a new template file or an edited helper counts without
 * anyone bumping a number), the assets, Eleventy's version, and Node's (Intl formats dates and
 * numbers with its ICU data).
 */
export function siteVersion(): Promise<string> {
  version ??= (async () => {
    const parts: string[] = [];
    for (const file of await sourceFiles(ROOT, ENTRIES)) parts.push(file, md5(await readFile(path.join(ROOT, file))));
    for (const name of (await readdir(path.join(ROOT, ASSETS))).sort()) parts.push(name, md5(await readFile(path.join(ROOT, ASSETS, name))));
    const eleventy = JSON.parse(await readFile(path.join(ROOT, "node_modules/@11ty/eleventy/package.json"), "utf8")).version;
    parts.push(`eleventy ${eleventy}`, `node ${process.version} icu ${process.versions.icu}`);
    return md5(parts.join("\n"));
  })();
  return version;
}

// Relative imports and re-exports that load code (`import type` is erased: it renders nothing).
const IMPORT = /^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s*["'](\.[^"']+)["']|^\s*import\s*["'](\.[^"']+)["']/gm;

/** The source files `entries` load, themselves included, following relative imports (paths relative to root, sorted). */
export async function sourceFiles(root: string, entries: string[]): Promise<string[]> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await readFile(path.join(root, file), "utf8");
    for (const match of text.matchAll(IMPORT)) {
      queue.push(path.relative(root, path.resolve(root, path.dirname(file), match[1] ?? match[2]!)).split(path.sep).join("/"));
    }
  }
  return [...seen].sort();
}

/**
 * The key function of one domain's pages: md5 of the version, the shared DomainSite, the page's
 * path and its data. Directors and works are hashed once each (a listing page shows 20 works)
 * and stand in pages as their digest; images as the variants the markup shows (file names are
 * content hashes; width and height are in the markup), not where they lie in the cache.
 */
export function pageKeys(site: DomainSite, listed: ListedWork[], version: string): (page: SitePage) => string {
  const { images, strings: _strings, ...shared } = site;
  const variants = new Map<string, unknown>();
  const digests = new Map<unknown, string>();
  const replacer = (key: string, value: unknown) => {
    if (key === "site") return undefined; // in siteKey
    const digest = digests.get(value);
    if (digest !== undefined) return digest;
    if ((key === "cover" || key === "photo") && typeof value === "string") {
      let shown = variants.get(value);
      if (shown === undefined) variants.set(value, (shown = [value, imageVariants(images.get(value))]));
      return shown;
    }
    // Sets and maps serialise as "{}": as sorted lists, so their content is in the key.
    return value instanceof Set ? [...value].sort() : value instanceof Map ? [...value] : value;
  };
  const hash = (value: unknown) => md5(JSON.stringify(value, replacer));
  const siteKey = hash({ version, shared });
  for (const { director } of listed) if (director !== null && !digests.has(director)) digests.set(director, hash(director));
  for (const work of listed) digests.set(work, hash(work));
  return (page) => md5(`${siteKey}\0${pagePath(page)}\0${JSON.stringify(page, replacer)}`);
}

const imageVariants = (v: Variants | undefined) => v && [...v.webp, ...v.jpeg].map(({ file, width, height }) => [file, width, height]);
