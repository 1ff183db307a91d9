import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../errors.ts";

/**
 * `_catalogue/build.json`: what a server needs to know about a build to route requests onto its
 * files (which hosts exist, where each domain's API and media live, the export file names).
 * `catalogue serve` and `catalogue config` read it; nothing in it depends on anything but the
 * content and the build date.
 */

import { BUILD_INFO_PATH } from "./catalogue-paths.ts";

export { BUILD_INFO_PATH };

export const domainInfo = z.object({
  /** The host name clients send; also the folder of its files. */
  domain: z.string(),
  name: z.string(),
  base_url: z.string(),
  media_url: z.string(),
  locale: z.string(),
  default_ordering: z.string(),
  /** Path of the domain's URL space under its host ("" or like "/cataleg"). */
  base_path: z.string(),
  /** Folder (host + path) that holds the domain's processed media. */
  media_folder: z.string(),
  /** Listed works and pages of the listing. */
  count: z.number(),
  total_pages: z.number(),
  /** Download names of the three spreadsheets, by export kind. */
  exports: z.record(z.string(), z.string()),
  /** Whether the HTML catalogue was built for this domain. */
  site: z.boolean(),
  /** The folders of its site's other language versions (`es`, `va`, …: src/site/language-versions.ts); absent for one language. */
  languages: z.array(z.string()).optional(),
  /** Sources the library adds to its pages' Content-Security-Policy (`site/content-security.json`, src/web/policy.ts); absent when none. */
  content_security: z.record(z.string(), z.array(z.string())).optional(),
});
export type DomainInfo = z.infer<typeof domainInfo>;

/**
 * A domain's entry: what its build says of it, and what lets shards of a network (builds and
 * publishes of some domains, on other machines or days) merge their entries into the file one
 * full build would write.
 */
const domainEntry = domainInfo.extend({
  /** Its row in domains.csv (from 0): entries are sorted by it, whichever shard wrote them. */
  position: z.number(),
  /** The build date of the domain's files: a domain built on another day keeps its own. */
  date: z.string(),
});
export type DomainEntry = z.infer<typeof domainEntry>;

const buildInfo = z.object({
  generator: z.literal("catalogue"),
  version: z.literal(1),
  /** The newest of the domains' dates (a full build: its date). */
  date: z.string(),
  /** In the order of domains.csv: the first one answers unknown hosts. */
  domains: z.array(domainEntry).min(1),
});
export type BuildInfo = z.infer<typeof buildInfo>;

/**
 * The build description of these entries, as a full build writes it: sorted by their row in
 * domains.csv (then by host), dated by the newest. Shards merging their entries in any order get
 * the same bytes as one build of all the domains on one date.
 */
export function describeBuild(domains: readonly DomainEntry[]): BuildInfo {
  const sorted = [...domains].sort(
    (a, b) => a.position - b.position || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0),
  );
  const date = sorted.reduce((newest, d) => (d.date > newest ? d.date : newest), sorted[0]!.date);
  // Parsed: every entry's keys in the schema's order, whoever made it.
  return buildInfo.parse({ generator: "catalogue", version: 1, date, domains: sorted });
}

/** A build description as bytes, as the build writes it (shards' merges must give the same bytes). */
export const buildInfoBytes = (info: BuildInfo) =>
  Buffer.from(JSON.stringify(info, null, 2) + "\n");

/**
 * A build description's bytes read back, null when they are not one. One of an older version
 * (entries without position or date) is taken with each entry's place in the file and the file's date.
 */
export function parseBuildInfo(bytes: Buffer | string | null): BuildInfo | null {
  if (bytes === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString());
  } catch {
    return null;
  }
  const parsed = buildInfo.safeParse(json);
  if (parsed.success) return parsed.data;
  const older = olderBuildInfo.safeParse(json);
  if (!older.success) return null;
  return buildInfo.parse({
    ...older.data,
    domains: older.data.domains.map((d, position) => ({ ...d, position, date: older.data.date })),
  });
}

const olderBuildInfo = buildInfo.extend({ domains: z.array(domainInfo).min(1) });

/** Reads the build description of an output folder, with a message that says what to do. */
export async function readBuildInfo(dir: string): Promise<BuildInfo> {
  const file = path.join(dir, BUILD_INFO_PATH);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new UserError(
      `${dir} holds no catalogue build (no ${BUILD_INFO_PATH}): run "catalogue build --out ${dir}" first, or pass --dir`,
    );
  }
  const parsed = parseBuildInfo(text);
  if (parsed === null)
    throw new UserError(`${file} is not a build description of this version of catalogue: rebuild`);
  return parsed;
}
