import {
  BUILD_INFO_PATH,
  buildInfoBytes,
  describeBuild,
  parseBuildInfo,
  type BuildInfo,
} from "../../output/build-info.ts";
import { isMedia } from "../targets/file-headers.ts";
import { acquireLease } from "./lease.ts";
import type { PublishOptions } from "../options.ts";
import { chooseDomains, madeFile, type BuildFile, type Source } from "../source.ts";
import type { Store } from "../targets/target.ts";
import { CATALOGUE_DIR } from "../../output/catalogue-paths.ts";

/**
 * What a publish of some domains (`--domain`, a shard of a network) shares with the others that
 * publish to the same target: `_catalogue/build.json`, into which each merges its domains'
 * entries, and media folders, which a domain's images may share with other domains.
 */

/**
 * What a scoped publish may delete: files of its domains' folders, and media of media folders
 * that only its domains use (per the target's build.json and the build's): a folder shared with
 * another domain keeps its images until a whole publish, and so does every media folder while the
 * target has no build.json.
 */
export function scopedDeletes(info: BuildInfo, names: string[], stored: BuildInfo | null) {
  const all = [...info.domains, ...(stored?.domains ?? [])];
  const ours = (folder: string) =>
    all.every((d) => d.media_folder !== folder || names.includes(d.domain));
  return (rel: string) => {
    if (rel.startsWith(`${CATALOGUE_DIR}/`)) return false;
    if (!isMedia(rel, info)) return names.includes(rel.slice(0, rel.indexOf("/")));
    // Without the target's build.json this publish cannot know which other domains share a media
    // folder: the first round of a network, whose shards publish at once, each uploading media the
    // others do not use. It keeps them all; a later publish, or a whole one, removes what is unused.
    if (stored === null) return false;
    return (
      all.some((d) => rel.startsWith(`${d.media_folder}/`)) &&
      all.filter((d) => rel.startsWith(`${d.media_folder}/`)).every((d) => ours(d.media_folder))
    );
  };
}

/**
 * build.json of a publish that owns some domains: the target's, with those domains' entries
 * replaced or added, so that shards publishing other domains to the same target keep theirs.
 * Entries carry their row in domains.csv and their date (build-info.ts `describeBuild`): the
 * shards' merges, in whatever order they land, write the bytes of one full build.
 */
export function mergedBuildJson(
  info: BuildInfo,
  names: string[],
  stored: Buffer | null,
): BuildFile & { md5: string } {
  const current = parseBuildInfo(stored);
  const ours = info.domains.filter((d) => names.includes(d.domain));
  const merged = describeBuild([
    ...(current?.domains ?? []).filter((d) => !names.includes(d.domain)),
    ...ours,
  ]);
  return madeFile(BUILD_INFO_PATH, buildInfoBytes(merged), merged);
}

/** Stores build.json merged again from the target's latest copy, under a short lease of its own: shards never lose each other's domains. */
export async function remerge(
  source: Source,
  store: Store,
  options: PublishOptions,
): Promise<void> {
  const lease = await acquireLease(store, [BUILD_INFO_PATH], {
    ...options.lease,
    wait: true,
    patienceMs: 120_000,
  });
  try {
    const names = chooseDomains(source.info, options.domains!).map((d) => d.domain);
    await store.put(mergedBuildJson(source.info, names, await store.get(BUILD_INFO_PATH)));
  } finally {
    await lease.release().catch(() => {});
  }
}
