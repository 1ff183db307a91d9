import type { Director } from "../content/schema.ts";
import type { ListedWork } from "../model/domain-view.ts";
import { browseDigest, directorDigest, inputsDigest } from "../model/work-digests.ts";
import { md5 } from "../util/hash.ts";
import { dependencyVersion } from "../program.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";
import type { Variants } from "./image-variants.ts";
import { titleIn } from "./titles.ts";
import { pagePath, type DomainSite, type SitePage } from "./model.ts";

/**
 * Page keys. A page's HTML is a function of the template code and of its data, so a key over both
 * says whether the previous build's file can be kept without rendering it (`FileSink.reuse`). A
 * key that misses something the HTML depends on would keep a stale page, so the keys are generous:
 * the whole planned page and the whole DomainSite (both hold only what pages show), every byte
 * of the code that renders them, and the versions of what else shapes the output.
 */

/**
 * The site's rendering: the Eleventy configuration (the template) and its runner (what they
 * import is what renders pages), the assets (not imported, but part of the site), the version of
 * the Eleventy that runs (wherever the install put it), and Node's (Intl formats dates and
 * numbers with its ICU data).
 */
export const SITE_CODE: CodeConcern = {
  // The library's own pages are made outside the template (src/site/folder/own-site-pages.ts renders their bodies).
  entries: [".eleventy.ts", "src/site/eleventy.ts", "src/site/folder/own-site-pages.ts"],
  assets: ["src/site/assets"],
  engines: () => [
    `eleventy ${dependencyVersion("@11ty/eleventy")}`,
    `node ${process.version} icu ${process.versions.icu}`,
  ],
};

/**
 * The version of the site's rendering: a digest of the code files the templates are made of (the
 * sources or, in the package, their compiled JavaScript: found by following their imports, so a
 * new template file or an edited helper counts without anyone bumping a number) and of the rest
 * of SITE_CODE.
 */
export async function siteVersion(): Promise<string> {
  return codeVersion(SITE_CODE);
}

/**
 * The key function of one domain's pages: md5 of the version, the shared DomainSite, the page's
 * path and its data. Works stand in pages as their inputs digest (`workDigests`, from
 * src/pipeline/domain-inputs.ts: the work, its director, window and novelty, whole) with the image
 * variants the markup shows (file names are content hashes; width and height are in the markup),
 * not where they lie in the cache. Directors stand as their digest with their photo's variants.
 *
 * Plain JSON.stringify of shallow copies, not a replacer: a replacer is called for every value
 * of every work, which made keying a domain's pages cost more than rendering a rename's.
 */
export function pageKeys(
  site: DomainSite,
  version: string,
  workDigests: ReadonlyMap<ListedWork, string>,
): (page: SitePage) => string {
  const code = site.strings.code;
  const {
    images,
    strings: _strings,
    siteFolder: _look,
    siteFolderKey: lookKey,
    brand,
    nav,
    ...shared
  } = site;
  const variants = new Map<string, string>();
  const shown = (rel: string | null | undefined) => {
    if (rel === null || rel === undefined) return "";
    let found = variants.get(rel);
    if (found === undefined)
      variants.set(rel, (found = md5(JSON.stringify([rel, imageVariants(images.get(rel))]))));
    return found;
  };
  // The look (its digest), the brand (with the logo's variants) and the own pages' navigation,
  // only where they are: a site without them keeps the keys it had before they existed.
  // (Absent from sites made by hand, as tests make them.)
  const own = {
    ...(lookKey ? { lookKey } : {}),
    ...(brand && Object.keys(brand).length > 0 ? { brand, logo: shown(brand.logo) } : {}),
    ...(nav?.length ? { nav } : {}),
  };
  // Sets serialise as "{}": as sorted lists, so that their content is in the key.
  const siteKey = md5(
    JSON.stringify({
      version,
      shared: { ...shared, categories: [...shared.categories].sort(), ...own },
    }),
  );
  const directorKey = (director: Director) => `${directorDigest(director)}${shown(director.photo)}`;
  const works = new Map<ListedWork, string>();
  const workKey = (listed: ListedWork) => {
    let found = works.get(listed);
    if (found === undefined) {
      // What cards show that the inputs digest leaves out (it keys the API too): the title in this
      // version's language and the leaving badge. Both empty for a work without them, so its key
      // is as it was; a title in another language re-keys that version's cards only.
      const names = listed.work.browse?.names;
      const title = names === undefined ? "" : `\0${titleIn(listed.work, code)}`;
      const digest = `${inputsDigest(workDigests, listed)}${title}${listed.isLeaving ? "L" : ""}`;
      // One digest per work: a listing page's key then hashes 20 short digests, not their variants.
      works.set(
        listed,
        (found = md5(`${digest}${shown(listed.work.cover)}${shown(listed.director?.photo)}`)),
      );
    }
    return found;
  };
  return (page) => {
    const { site: _site, ...fields } = page as SitePage & Record<string, unknown>;
    if ("listed" in page) {
      fields.listed = workKey(page.listed);
      // A work's own page shows all its browsing columns (its facts, its other titles).
      const browse = browseDigest(page.listed.work);
      if (browse !== "") fields.browse = browse;
    }
    if ("works" in page) fields.works = page.works.map(workKey);
    if ("director" in page) fields.director = directorKey(page.director);
    return md5(`${siteKey}\0${pagePath(page)}\0${JSON.stringify(fields)}`);
  };
}

const imageVariants = (v: Variants | undefined) =>
  v && [...v.webp, ...v.jpeg].map(({ file, width, height }) => [file, width, height]);
