import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { BUILD_INFO_PATH, readBuildInfo } from "../../output/build-info.ts";
import { holdVersion, MANIFEST_PATH } from "../../output/tree.ts";
import { md5 } from "../../util/hash.ts";
import { countLines } from "../../output/manifest.ts";
import { mapLimit } from "../../util/concurrency.ts";
import { decodeRecordHead, RECORD_HEAD_BYTES, recordPath, RECORDS_FOLDER } from "./records.ts";
import { mergedBuildJson } from "./scope.ts";
import { chooseDomains, readDomainKeys } from "../source.ts";
import { LEGACY_PUBLISHED_PATH, type Listed, type Store } from "../targets/target.ts";

/**
 * The quick answer of a publish with nothing to do (a deploy whose build found its inputs
 * unchanged, a nightly run on a quiet day): the listing of `_catalogue/` (which the full
 * comparison then reuses) and the first line of each owned domain's record, instead of reading
 * the build's file list and the whole records.
 *
 * A record is written `complete` only once the target holds exactly the domain's files of the
 * build it names by inputs key (publish.ts), and a domain's inputs key changes with anything its
 * files are made of (src/pipeline/domain-inputs.ts: content, date-dependent listing, images, program). So
 * when every owned domain's record is complete with the key of the build at hand, build.json is
 * the one the target holds, and (for a whole publish) the target records no other domain, the
 * full comparison would find nothing to upload or delete. Any doubt answers null: the caller
 * then publishes as usual.
 */
export async function unchangedOnTarget(
  dir: string,
  store: Store,
  domains: string[] | undefined,
  catalogue: Map<string, Listed>,
): Promise<{ skipped: number } | null> {
  const real = await realpath(dir).catch(() => null);
  if (real === null) return null;
  const release = await holdVersion(real);
  try {
    const info = await readBuildInfo(real).catch(() => null);
    if (info === null) return null;
    const keys = await readDomainKeys(real);
    const whole = domains === undefined;
    const names = whole
      ? info.domains.map((d) => d.domain)
      : chooseDomains(info, domains).map((d) => d.domain);
    if (names.some((d) => keys[d] === undefined)) return null;

    if (catalogue.has(LEGACY_PUBLISHED_PATH)) return null;
    const recorded = [...catalogue.keys()].filter(
      (rel) => rel.startsWith(RECORDS_FOLDER) && rel.endsWith(".tsv"),
    );
    if (names.some((d) => !catalogue.has(recordPath(d)))) return null;
    // A whole publish also removes the domains the build no longer has.
    if (whole && recorded.length !== names.length) return null;

    const storedBuild = catalogue.get(BUILD_INFO_PATH);
    if (storedBuild === undefined) return null;
    const ownBuild = await readFile(path.join(real, BUILD_INFO_PATH));
    // A shard's build.json is the target's with its domains' entries merged in (scope.ts).
    const wanted = whole
      ? md5(ownBuild)
      : mergedBuildJson(info, names, await store.get(BUILD_INFO_PATH)).md5;
    if (wanted !== storedBuild.md5) return null;

    const heads = await mapLimit(names, 8, async (domain) => {
      const bytes = await store.get(recordPath(domain), RECORD_HEAD_BYTES);
      return bytes === null ? null : decodeRecordHead(bytes);
    });
    let files = 0;
    for (const [i, head] of heads.entries()) {
      if (
        head === null ||
        head.domain !== names[i] ||
        head.state !== "complete" ||
        head.inputs !== keys[names[i]]
      )
        return null;
      files += head.files ?? 0;
    }
    return { skipped: whole ? await publishedFiles(real) : files + 1 };
  } finally {
    await release();
  }
}

/** Files a whole publish of the build holds: its file list (one line each, under a header line) but inputs.json (source.ts UNPUBLISHED). */
async function publishedFiles(dir: string): Promise<number> {
  return countLines(await readFile(path.join(dir, MANIFEST_PATH))) - 2;
}
