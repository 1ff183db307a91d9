import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import {
  BUILD_INFO_PATH,
  buildInfoBytes,
  readBuildInfo,
  type BuildInfo,
} from "../output/build-info.ts";
import { INPUTS_PATH } from "../output/catalogue-paths.ts";
import { holdVersion, MANIFEST_PATH, readManifest, type FileEntry } from "../output/tree.ts";
import { md5 } from "../util/hash.ts";
import { headersFor, isMedia } from "./targets/file-headers.ts";
import type { UndigestedFile } from "./records/md5s.ts";

/**
 * The build to publish, read from its `_catalogue/files.tsv` (size, and key or MD5 of every
 * file; publish/digests.ts completes the MD5s of keyed files), or handed over by the build that
 * just wrote it (deploy). `dist` is a link that a concurrent build may swap: it is resolved once,
 * and every byte is read from that one version.
 */

/** The upload phases, in order: a page never links to a file the target does not hold yet. */
export type Phase = "media" | "pages" | "entry";

export type BuildFile = UndigestedFile & { phase: Phase };

export interface Source {
  /** The resolved build version. */
  dir: string;
  info: BuildInfo;
  /** Each domain's inputs key (`_catalogue/inputs.json`), written into its record (records/records.ts). */
  inputs: Record<string, string>;
  /** Every published file, sorted by path (the build's own bookkeeping, but build.json, is not published). */
  files: BuildFile[];
  /** Lets builds recycle the version again (it is held while it is read). */
  release: () => Promise<void>;
}

/** Build files that stay in the output: what the build knows of its inputs, and its file list. */
export const UNPUBLISHED = new Set([MANIFEST_PATH, INPUTS_PATH]);

export async function readSource(
  dir: string,
  manifest?: ReadonlyMap<string, FileEntry>,
): Promise<Source> {
  const real = await realpath(dir).catch(() => {
    throw new UserError(
      `${dir} does not exist: run "catalogue build --out ${dir}" first, or pass --dir`,
    );
  });
  // Builds finishing meanwhile must not recycle this version while its files are uploaded.
  const release = await holdVersion(real);
  try {
    const info = await readBuildInfo(real);
    let entries = manifest;
    if (entries === undefined) {
      try {
        entries = await readManifest(real);
      } catch {
        throw new UserError(
          `${dir} has no readable ${MANIFEST_PATH}: rebuild it with "catalogue build --out ${dir}"`,
        );
      }
    }
    const files: BuildFile[] = [];
    for (const [rel, entry] of entries) {
      if (UNPUBLISHED.has(rel)) continue;
      files.push({
        path: rel,
        size: entry.size,
        md5: entry.md5,
        key: entry.key,
        abs: path.join(real, rel),
        bytes: null,
        ...headersFor(rel, info),
        phase: phaseOf(rel, info),
      });
    }
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { dir: real, info, inputs: await readDomainKeys(real), files, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Each domain's inputs key as the build recorded it ({} for a build without them). */
export async function readDomainKeys(dir: string): Promise<Record<string, string>> {
  try {
    const domains = (
      JSON.parse(await readFile(path.join(dir, INPUTS_PATH), "utf8")) as { domains?: unknown }
    ).domains;
    return typeof domains === "object" && domains !== null
      ? (domains as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

/** The domains of the build among `names`, with a message naming the ones it lacks. */
export function chooseDomains(info: BuildInfo, names: readonly string[]): BuildInfo["domains"] {
  const unknown = names.filter((n) => !info.domains.some((d) => d.domain === n));
  if (unknown.length > 0) {
    throw new UserError(
      `--domain: the build has no domain ${unknown.join(", ")}; its domains are: ${info.domains.map((d) => d.domain).join(", ")}`,
    );
  }
  return info.domains.filter((d) => names.includes(d.domain));
}

/** The domains a file belongs to: its domain's folder, or the media folder of each domain that shares it. */
export function ownersOf(rel: string, info: BuildInfo): string[] {
  if (isMedia(rel, info))
    return info.domains.filter((d) => rel.startsWith(`${d.media_folder}/`)).map((d) => d.domain);
  const top = rel.slice(0, rel.indexOf("/"));
  return info.domains.some((d) => d.domain === top) ? [top] : [];
}

/**
 * ownersOf for every path of one build: the same answers, without a string or an array made for
 * each file of a domain's own folder (a deploy asks for each of 71,000 files and 72,000 record lines).
 */
export function ownersIn(info: BuildInfo): (rel: string) => readonly string[] {
  const folders = info.domains.map((d) => ({
    prefix: `${d.domain}/`,
    owners: [d.domain] as const,
  }));
  return (rel) => {
    if (!isMedia(rel, info)) for (const f of folders) if (rel.startsWith(f.prefix)) return f.owners;
    return ownersOf(rel, info);
  };
}

/** A file made for this publish (a merged or filtered build.json). */
export function madeFile(rel: string, bytes: Buffer, info: BuildInfo): BuildFile & { md5: string } {
  return {
    path: rel,
    size: bytes.length,
    md5: md5(bytes),
    abs: null,
    bytes,
    ...headersFor(rel, info),
    phase: phaseOf(rel, info),
  };
}

/**
 * An archive of some domains: their folders, their media (possibly on other hosts) and a
 * build.json that lists them only.
 */
export function domainsOnly(source: Source, names: readonly string[]): BuildFile[] {
  const chosen = chooseDomains(source.info, names);
  const info = { ...source.info, domains: chosen };
  const keep = (rel: string) =>
    chosen.some((d) => rel.startsWith(`${d.domain}/`) || rel.startsWith(`${d.media_folder}/`));
  return [
    ...source.files.filter((f) => keep(f.path)),
    madeFile(BUILD_INFO_PATH, buildInfoBytes(info), info),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Entry documents: what a visitor or client starts from, published after everything they link to. */
export function phaseOf(rel: string, info: BuildInfo): Phase {
  if (isMedia(rel, info)) return "media";
  if (rel === BUILD_INFO_PATH) return "entry";
  for (const d of info.domains) {
    if (!rel.startsWith(`${d.domain}/`)) continue;
    const inDomain = rel.slice(d.domain.length + 1);
    if (/^_api\/list\/[^/]+\/[^/]+\/(1|last)\.json$/.test(inDomain)) return "entry";
    if (inDomain === `${d.base_path.replace(/^\//, "")}${d.base_path ? "/" : ""}index.html`)
      return "entry";
  }
  return "pages";
}
