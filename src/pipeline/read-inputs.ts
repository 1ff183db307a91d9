import path from "node:path";
import { loadCatalogue, type Catalogue } from "../content/load.ts";
import { openImageHeaderCache } from "../content/source-images.ts";
import type { Domain } from "../content/schema.ts";
import { InputError, UserError } from "../errors.ts";
import type { Reporter } from "../util/reporter.ts";
import type { SiteFolder } from "../site/folder/folder.ts";
import type { PolicySources } from "../web/policy.ts";
import { ownPageProblems, policySettingOf, siteFolderPath } from "./site-folder.ts";
import type { BuildInputs } from "./up-to-date.ts";

/** What the build reads before it writes anything. */
export interface ReadInputs {
  /** The build date T. */
  date: string;
  /** Whether the HTML catalogue is rendered. */
  site: boolean;
  /** Where processed images are cached between builds. */
  cacheDir: string;
  reporter: Reporter;
  catalogue: Catalogue;
  /** The domains this build builds (all, or those of `--domain`). */
  domains: Domain[];
  /** The library's site folder, read when the site is built. */
  siteFolder: SiteFolder | null;
  /** The pages' added policy sources (with the site or without: the servers' headers come from build.json). */
  contentSecurity: PolicySources | undefined;
  /** The site's module, loaded when the site is built. */
  renderModule: typeof import("../site/render.ts") | null;
}

/** The options read by the steps after the inputs. */
export interface ReadOptions extends BuildInputs {
  cacheDir?: string;
  reporter?: Reporter;
}

const silent: Reporter = { stage() {}, warning() {} };

/**
 * Reads the content and the site folder and checks them. Nothing of the output is touched: their
 * problems stop the build before anything is written.
 */
export async function readInputs(options: ReadOptions, date: string): Promise<ReadInputs> {
  const reporter = options.reporter ?? silent;
  const site = options.site ?? true;
  reporter.stage("reading content");
  const cacheDir = options.cacheDir ?? path.resolve(".cache", "catalogue");
  const headerCache = await openImageHeaderCache(cacheDir);
  const catalogue = await loadCatalogue(
    options.contentDir,
    (w) => reporter.warning(w),
    headerCache,
    cacheDir,
  );
  // A cache that cannot be written costs the next build the headers' reading, not this build.
  await headerCache.save().catch(() => {});
  const domains = selectDomains(catalogue, options.domains);

  // The site's modules (Eleventy) are slow to load: only when the site is built.
  const renderModule = site ? await import("../site/render.ts") : null;
  // The library's site folder is checked before anything is written: its problems stop the build.
  const siteDir = siteFolderPath(options.contentDir, options.siteDir);
  const siteFolder =
    renderModule === null
      ? null
      : renderModule.readSiteFolder(siteDir, options.siteDir !== undefined);
  // Own pages on a path a domain's language version, media or the catalogue owns.
  const pageProblems =
    siteFolder === null ? [] : ownPageProblems(siteFolder.pages, catalogue.domains);
  if (pageProblems.length > 0) throw new InputError(pageProblems);
  // The pages' added policy sources: read with the site or without, the servers' headers come from build.json.
  const contentSecurity =
    siteFolder !== null ? siteFolder.contentSecurity : policySettingOf(siteDir);
  // Nothing the library's files load is blocked silently.
  for (const warning of siteFolder?.blockedOn(domains) ?? []) reporter.warning(warning);
  return {
    date,
    site,
    cacheDir,
    reporter,
    catalogue,
    domains,
    siteFolder,
    contentSecurity,
    renderModule,
  };
}

function selectDomains(catalogue: Catalogue, names: string[] | undefined): Domain[] {
  if (names === undefined || names.length === 0) return catalogue.domains;
  const known = new Map(catalogue.domains.map((d) => [d.domain, d]));
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0) {
    throw new UserError(
      `--domain: unknown domain ${unknown.join(", ")}; the domains are: ${[...known.keys()].join(", ")}`,
    );
  }
  return [...new Set(names)].map((n) => known.get(n)!);
}
