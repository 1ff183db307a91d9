import { realpath } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { BUILD_INFO_PATH, readBuildInfo, type BuildInfo } from "../output/build-info.ts";
import { holdVersion, MANIFEST_PATH, md5, readManifest, type FileEntry } from "../output/tree.ts";
import { headersFor, isMedia, type FileHeaders } from "./headers.ts";
import type { UndigestedFile } from "./digests.ts";

/**
 * The build to publish, read from its `_catalogue/files.tsv` (size, and key or MD5 of every
 * file; publish/digests.ts completes the MD5s of keyed files). `dist` is a link that a concurrent build may swap: it is resolved once,
 * and every byte is read from that one version.
 */

/** The three upload phases, in order: a page never links to a file the target does not hold yet. */
export type Phase = "media" | "pages" | "entry";

export interface Source {
  /** The resolved build version. */
  dir: string;
  info: BuildInfo;
  /** Sorted by path. */
  files: (UndigestedFile & { phase: Phase })[];
  /** Lets builds recycle the version again (it is held while it is read). */
  release: () => Promise<void>;
}

export async function readSource(dir: string, domain?: string): Promise<Source> {
  const real = await realpath(dir).catch(() => {
    throw new UserError(`${dir} does not exist: run "catalogue build --out ${dir}" first, or pass --dir`);
  });
  // Builds finishing meanwhile must not recycle this version while its files are uploaded.
  const release = await holdVersion(real);
  try {
    return await readVersion(dir, real, release, domain);
  } catch (error) {
    await release();
    throw error;
  }
}

async function readVersion(dir: string, real: string, release: () => Promise<void>, domain?: string): Promise<Source> {
  let info = await readBuildInfo(real);
  let manifest: Map<string, FileEntry>;
  try {
    manifest = await readManifest(real);
  } catch {
    throw new UserError(`${dir} has no readable ${MANIFEST_PATH}: rebuild it with "catalogue build --out ${dir}"`);
  }
  let entries = [...manifest];
  let buildJson: Buffer | null = null;
  if (domain !== undefined) {
    const chosen = info.domains.find((d) => d.domain === domain);
    if (chosen === undefined) {
      throw new UserError(`--domain: the build has no domain ${domain}; its domains are: ${info.domains.map((d) => d.domain).join(", ")}`);
    }
    info = { ...info, domains: [chosen] };
    // The domain's URL space, its media (possibly on another host) and the build description.
    const keep = (rel: string) => rel.startsWith(`${chosen.domain}/`) || rel.startsWith(`${chosen.media_folder}/`);
    entries = entries.filter(([rel]) => keep(rel));
    buildJson = Buffer.from(JSON.stringify(info, null, 2) + "\n");
  }
  const files = entries
    .filter(([rel]) => rel !== BUILD_INFO_PATH)
    .map(([rel, entry]): Omit<UndigestedFile, keyof FileHeaders> => ({ path: rel, ...entry, abs: path.join(real, rel), bytes: null }));
  if (buildJson !== null) files.push({ path: BUILD_INFO_PATH, size: buildJson.length, md5: md5(buildJson), abs: null, bytes: buildJson });
  else {
    const entry = manifest.get(BUILD_INFO_PATH);
    if (entry !== undefined) files.push({ path: BUILD_INFO_PATH, ...entry, abs: path.join(real, BUILD_INFO_PATH), bytes: null });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    dir: real,
    info,
    files: files.map((f) => ({ ...f, ...headersFor(f.path, info), phase: phaseOf(f.path, info) })),
    release,
  };
}

/** Entry documents: what a visitor or client starts from, published after everything they link to. */
export function phaseOf(rel: string, info: BuildInfo): Phase {
  if (isMedia(rel, info)) return "media";
  if (rel === BUILD_INFO_PATH) return "entry";
  for (const d of info.domains) {
    if (!rel.startsWith(`${d.domain}/`)) continue;
    const inDomain = rel.slice(d.domain.length + 1);
    if (/^_api\/list\/[^/]+\/[^/]+\/(1|last)\.json$/.test(inDomain)) return "entry";
    if (inDomain === `${d.base_path.replace(/^\//, "")}${d.base_path ? "/" : ""}index.html`) return "entry";
  }
  return "pages";
}
