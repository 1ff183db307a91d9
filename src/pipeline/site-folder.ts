import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { sitePaths } from "../content/languages.ts";
import { OwnerTable } from "../content/owners.ts";
import type { Domain } from "../content/schema.ts";
import { InputError, type Problem } from "../errors.ts";
import { parsePolicySetting, POLICY_FILE, type PolicySources } from "../web/policy.ts";

/**
 * Where a build finds the library's own site folder (src/site/folder/folder.ts): `--site DIR`, else
 * `site` beside the content folder. Kept light (no engine, no template): the no-change check
 * reads only its files' signatures.
 */
export const siteFolderPath = (contentDir: string, siteDir?: string): string =>
  siteDir ?? path.join(path.dirname(contentDir), "site");

/**
 * The site folder checked as the build would (its templates compiled, its pages, texts and
 * policy setting checked, its pages' paths against what these domains own): its problems, and as
 * warnings what the pages' policy would block on these domains. Nothing when it is fine or
 * absent. Loads the template engines.
 */
export async function checkSiteFolder(
  dir: string,
  named: boolean,
  domains: readonly Domain[],
): Promise<{ problems: Problem[]; warnings: Problem[] }> {
  const { readSiteFolder: readSiteFolder } = await import("../site/folder/folder.ts");
  try {
    const look = readSiteFolder(dir, named);
    return { problems: ownPageProblems(look.pages, domains), warnings: look.blockedOn(domains) };
  } catch (error) {
    if (error instanceof InputError) return { problems: error.problems, warnings: [] };
    throw error;
  }
}

/**
 * The own pages whose address is a path someone else owns on a domain's host: one of its language
 * versions, a media folder, a folder of the catalogue's (content/owners.ts). Errors naming the
 * page's file; once per build, whatever the number of pages built.
 */
export function ownPageProblems(
  pages: readonly { dir: string; file: string }[],
  domains: readonly Domain[],
): Problem[] {
  if (pages.length === 0 || domains.length === 0) return [];
  return new OwnerTable(domains.map((domain) => sitePaths(domain))).pageProblems(pages);
}

/** A build without the site reads only the folder's policy setting (src/web/policy.ts). */
export function policySettingOf(dir: string): PolicySources | undefined {
  const problems: Problem[] = [];
  const sources = readPolicySetting(dir, problems);
  if (problems.length > 0) throw new InputError(problems);
  return sources;
}

/**
 * The signatures of the folder's files (path, size, mtime, inode), or null when there is no
 * folder: part of the build's input fingerprint, so a save under site/ rebuilds.
 */
export function siteSignature(dir: string): string[] | null {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === "ENOENT" ||
      (error as NodeJS.ErrnoException).code === "ENOTDIR"
    )
      return null;
    throw error;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => {
      const file = path.join(e.parentPath, e.name);
      const info = statSync(file);
      return `${path.relative(dir, file).split(path.sep).join("/")}\0${info.size}\0${info.mtimeMs}\0${info.ino}`;
    })
    .sort();
}

/**
 * The setting of a site folder (`site/content-security.json`), or none when it has no such file.
 * Read by every build, with the site or without (`--no-site`): it goes into build.json, from which
 * every server sends the host's headers.
 */
export function readPolicySetting(siteDir: string, problems: Problem[]): PolicySources | undefined {
  const file = path.join(siteDir, POLICY_FILE);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  const sources = parsePolicySetting(file, text, problems);
  return Object.keys(sources).length > 0 ? sources : undefined;
}

/** The setting file's signature (size, mtime, inode), null when there is none: the no-change check's part of it. */
export function policySignature(siteDir: string): string | null {
  try {
    const info = statSync(path.join(siteDir, POLICY_FILE));
    return `${info.size}\0${info.mtimeMs}\0${info.ino}`;
  } catch {
    return null;
  }
}
