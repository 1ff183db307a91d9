import { createHash } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { InputError, UserError, type Problem } from "../../errors.ts";
import type { Language } from "../../content/schema.ts";
import type { Texts } from "../../web/i18n.ts";
import { Engines, engineOf, isNunjucks, nunjucksRefused, type Render } from "./engines.ts";
import { loadOwnPages, type OwnPage } from "./own-pages.ts";
import { parsePolicySetting, POLICY_FILE, type PolicySources } from "../../web/policy.ts";
import { blockedReferences, referencesIn, type PolicyDomain, type Reference } from "./blocked.ts";
import { checkTemplates } from "./rules.ts";
import { readTexts } from "./texts.ts";

/**
 * A library's own look: the `site/` folder beside the content folder (`--site DIR`), an Eleventy
 * input folder read once per build. Absent, nothing is overridden and the site is what it was.
 * Its files are markup, styles and Liquid templates, never code, read from inside the folder only
 * (a link is read as the file it names when that file is in the folder, else refused).
 *
 *   site/assets/**          copied into every site's assets/ (site.css linked after style.css)
 *   site/i18n/<lang>.json   interface texts of that language, by the package's keys
 *   site/_includes/<part>.liquid header, footer, or a whole page kind's main content
 *   site/pages/**           own pages (Markdown, Liquid, HTML) with front matter
 *   site/content-security.json  sources added to the pages' Content-Security-Policy (../policy.ts)
 */

/** The parts a template in `_includes/` may replace: the frame's header and footer, and each page kind's content. */
const PARTS = [
  "header",
  "footer",
  "home",
  "listing",
  "work",
  "director",
  "category",
  "browse",
  "not-found",
] as const;
export type Part = (typeof PARTS)[number];

export class SiteFolder {
  constructor(
    /** The folder as the user named it, or null when there is none. */
    readonly dir: string | null,
    /** Files of site/assets/, relative to it, sorted, with their bytes. */
    readonly assets: { name: string; bytes: Buffer }[],
    /** Text overrides per language, as written (their keys checked). */
    readonly texts: ReadonlyMap<Language, Texts>,
    /** The templates that replace a part. */
    readonly parts: ReadonlyMap<Part, Render>,
    readonly pages: OwnPage[],
    /**
     * A digest of what pages show of the folder: every file but the assets' bytes (their names
     * count: whether site.css is linked). Part of every page's key; a new stylesheet rewrites only
     * itself, since its URL carries no hash.
     */
    readonly pagesDigest: string,
    /** A digest of every byte of the folder: part of the domains' inputs keys. */
    readonly digest: string,
    /** What its templates, pages and stylesheets load, to be checked against the pages' policy (blocked.ts). */
    readonly references: readonly Reference[] = [],
    /** Sources the library adds to the pages' Content-Security-Policy (`content-security.json`). */
    readonly contentSecurity?: PolicySources,
    /** The documented rules its templates break, and the values they read that the data lacks (rules.ts). */
    readonly ruleWarnings: readonly Problem[] = [],
  ) {}

  static readonly NONE = new SiteFolder(null, [], new Map(), new Map(), [], "", "");

  /**
   * The folder's warnings on these domains' pages, found once per build: the overrides' rules
   * and unknown values (rules.ts), and what the pages' policy would block of what its files load.
   */
  warningsOn(domains: readonly PolicyDomain[]): Problem[] {
    if (this.dir === null) return [];
    const blocked =
      this.references.length === 0
        ? []
        : blockedReferences(
            this.references,
            domains,
            this.contentSecurity ?? {},
            path.join(this.dir, POLICY_FILE),
          );
    return [...this.ruleWarnings, ...blocked];
  }

  /** The name read-inputs.ts and the site folder's check call until they call warningsOn. */
  blockedOn(domains: readonly PolicyDomain[]): Problem[] {
    return this.warningsOn(domains);
  }

  get hasStylesheet(): boolean {
    return this.assets.some((a) => a.name === SITE_CSS);
  }
}

export const SITE_CSS = "site.css";

/** The files whose references the pages' policy governs: templates, own pages, stylesheets. */
const LOADING = /^(_includes\/.*\.(liquid|html)|pages\/.*\.(md|liquid|html)|assets\/.*\.css)$/;

/**
 * Reads and checks a site folder; every problem at once (InputError). A folder that does not
 * exist is Look.NONE, unless it was named (`--site DIR`): then it is an error.
 */
export function readSiteFolder(dir: string, named = false): SiteFolder {
  const problems: Problem[] = [];
  let files: Listed[];
  try {
    files = listFiles(dir, problems);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !named) return SiteFolder.NONE;
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new UserError(
        `--site: ${dir} is not a folder (the library's own site folder: assets/, pages/, _includes/, i18n/)`,
      );
    throw error;
  }
  const shown = (rel: string) => path.join(dir, rel);
  const engines = new Engines(
    path.resolve(dir, "_includes"),
    (file) => path.relative(process.cwd(), file) || file,
  );
  const assets: SiteFolder["assets"] = [];
  const texts = new Map<Language, Texts>();
  const parts = new Map<Part, Render>();
  const pageFiles: { rel: string; text: string }[] = [];
  let contentSecurity: PolicySources | undefined;
  const references: Reference[] = [];
  const pagesHash = createHash("md5");
  const allHash = createHash("md5");
  for (const { rel, real } of files) {
    // Read once, through its real path: what is checked is what is used.
    const bytes = readFileSync(real);
    allHash.update(`${rel}\0`).update(bytes).update("\0");
    if (isNunjucks(rel) && !rel.startsWith("assets/")) {
      problems.push({ file: shown(rel), message: nunjucksRefused(rel) });
      continue;
    }
    if (LOADING.test(rel)) references.push(...referencesIn(shown(rel), bytes.toString("utf8")));
    if (rel.startsWith("assets/")) {
      assets.push({ name: rel.slice("assets/".length), bytes });
      pagesHash.update(`${rel}\0`);
      continue;
    }
    // The policy is a header, not in any page: the domains' keys carry it (build.json).
    if (rel === POLICY_FILE) {
      contentSecurity = parsePolicySetting(shown(rel), bytes.toString("utf8"), problems);
      continue;
    }
    pagesHash.update(`${rel}\0`).update(bytes).update("\0");
    if (rel.startsWith("i18n/"))
      readTexts(shown(rel), rel.slice("i18n/".length), bytes.toString("utf8"), texts, problems);
    else if (rel.startsWith("pages/")) pageFiles.push({ rel, text: bytes.toString("utf8") });
    else if (rel.startsWith("_includes/")) {
      const name = path.basename(rel).replace(/\.[^.]+$/, "");
      if (!PARTS.includes(name as Part) || rel.indexOf("/", "_includes/".length) !== -1) continue; // a partial, included by name
      if (engineOf(rel) === undefined) {
        problems.push({ file: shown(rel), message: `a ${name} template must be Liquid (.liquid)` });
        continue;
      }
      if (parts.has(name as Part)) {
        problems.push({
          file: shown(rel),
          message: `a second ${name} template: keep one of ${PARTS.map(String).join(", ")} per name`,
        });
        continue;
      }
      const compiled = engines.compile(path.resolve(dir, rel), bytes.toString("utf8"));
      if (typeof compiled === "function") parts.set(name as Part, compiled);
      else problems.push(compiled);
    }
  }
  const pages = loadOwnPages(dir, pageFiles, engines, problems);
  const ruleWarnings = checkTemplates(engines, parts, pages, problems);
  if (problems.length > 0) throw new InputError(problems);
  const added =
    contentSecurity !== undefined && Object.keys(contentSecurity).length > 0
      ? contentSecurity
      : undefined;
  return new SiteFolder(
    dir,
    assets,
    texts,
    parts,
    pages,
    pagesHash.digest("hex"),
    allHash.digest("hex"),
    references,
    added,
    ruleWarnings,
  );
}

/** A file of the folder: its path in it (with "/"), and the real path its bytes are read from. */
interface Listed {
  rel: string;
  real: string;
}

/**
 * Every file under the folder, sorted (dot files left out: editors' and systems' own). A link is
 * listed as the file (or the folder's files) it names when that is inside the folder; a link
 * out of it, or to nothing, is a problem and is not read.
 */
function listFiles(dir: string, problems: Problem[]): Listed[] {
  if (!statSync(dir).isDirectory())
    throw Object.assign(new Error(`not a folder: ${dir}`), { code: "ENOTDIR" });
  const root = realpathSync(dir);
  const files: Listed[] = [];
  const walk = (real: string, rel: string, holding: ReadonlySet<string>) => {
    for (const entry of readdirSync(real, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const at = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const here = path.join(real, entry.name);
      if (entry.isDirectory()) walk(here, at, new Set([...holding, here]));
      else if (entry.isFile()) files.push({ rel: at, real: here });
      else if (entry.isSymbolicLink()) {
        const file = path.join(dir, at);
        const named = readlinkSync(here);
        let target: string;
        try {
          target = realpathSync(here);
        } catch {
          problems.push({ file, message: `a link to ${named}, which does not exist` });
          continue;
        }
        if (target !== root && !target.startsWith(root + path.sep)) {
          problems.push({
            file,
            message: `a link to ${named}, outside ${dir}/: copy the file into ${dir}/ instead`,
          });
          continue;
        }
        const info = statSync(target);
        if (info.isFile()) files.push({ rel: at, real: target });
        else if (info.isDirectory()) {
          if (holding.has(target))
            problems.push({ file, message: `a link to ${named}, a folder that holds it` });
          else walk(target, at, new Set([...holding, target]));
        }
      }
    }
  };
  walk(root, "", new Set([root]));
  return files.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}
