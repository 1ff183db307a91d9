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

import { BUILD_INFO_PATH } from "./records.ts";

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
});
export type DomainInfo = z.infer<typeof domainInfo>;

export const buildInfo = z.object({
  generator: z.literal("catalogue"),
  version: z.literal(1),
  date: z.string(),
  /** In the order of domains.csv: the first one answers unknown hosts. */
  domains: z.array(domainInfo).min(1),
});
export type BuildInfo = z.infer<typeof buildInfo>;

/** Reads the build description of an output folder, with a message that says what to do. */
export async function readBuildInfo(dir: string): Promise<BuildInfo> {
  const file = path.join(dir, BUILD_INFO_PATH);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    throw new UserError(`${dir} holds no catalogue build (no ${BUILD_INFO_PATH}): run "catalogue build --out ${dir}" first, or pass --dir`);
  }
  const parsed = buildInfo.safeParse(JSON.parse(text));
  if (!parsed.success) throw new UserError(`${file} is not a build description of this version of catalogue: rebuild`);
  return parsed.data;
}
