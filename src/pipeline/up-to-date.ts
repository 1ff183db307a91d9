import { readFileSync } from "node:fs";
import path from "node:path";
import { UserError } from "../errors.ts";
import { resolveBuildDate } from "../util/dates.ts";
import { countLines } from "../output/manifest.ts";
import { BUILD_INFO_PATH, INPUTS_PATH, MANIFEST_PATH } from "../output/catalogue-paths.ts";
import { contentFingerprint } from "./fingerprint.ts";
import { policySignature, siteFolderPath, siteSignature } from "./site-folder.ts";
import type { TreeSummary } from "../output/tree.ts";
import {
  CONTENT_DIGESTS,
  readCurrent,
  removeAbandoned,
  versionsFolder,
} from "../output/versions-folder.ts";

/** What decides whether a build has anything to do. */
export interface BuildInputs {
  contentDir: string;
  outDir: string;
  /** YYYY-MM-DD; else SOURCE_DATE_EPOCH, else today (UTC). */
  date?: string;
  /** Build only these domains; the others keep their previous output. */
  domains?: string[];
  /** Render the HTML catalogue (false: API, exports and server files only). */
  site?: boolean;
  /** The library's own site folder (default: `site` beside the content folder; absent: nothing overridden). */
  siteDir?: string;
}

export interface UpToDate {
  /** The build date T the inputs resolve to. */
  date: string;
  /** The digest of the inputs (src/pipeline/fingerprint.ts). */
  fingerprint: string;
  /** The current output's summary when it was built from exactly these inputs, else null. */
  current: (TreeSummary & { domains: string[] }) | null;
  /**
   * The build's size as the CSVs' lines tell it, less their headers (a line break in a quoted
   * cell counts high): the works, and the domains built. What the command tunes V8's heap from
   * (src/util/memory.ts).
   */
  size: BuildSize;
}

export interface BuildSize {
  works: number;
  domains: number;
}

/**
 * Whether the current output was built from these very inputs. Kept apart from the pipeline and
 * light (no package, no schema): a build with nothing to do loads only this, so that the command
 * answers in the time Node takes to start.
 */
export async function checkUpToDate(inputs: BuildInputs): Promise<UpToDate> {
  const date = resolveBuildDate(inputs.date);
  const site = inputs.site ?? true;
  const digests = path.join(versionsFolder(inputs.outDir), CONTENT_DIGESTS);
  // The site folder by its files' signatures, where it exists (a build without one keeps its fingerprint).
  const siteDir = siteFolderPath(inputs.contentDir, inputs.siteDir);
  const look = site ? siteSignature(siteDir) : null;
  // Without the site, its policy setting still goes into build.json.
  const policy = site ? null : policySignature(siteDir);
  // A folder named by --site must be there, even when nothing else changed.
  if (site && inputs.siteDir !== undefined && look === null)
    throw new UserError(
      `--site: ${inputs.siteDir} is not a folder (the library's own site folder: assets/, pages/, _includes/, i18n/)`,
    );
  const { fingerprint, lines } = await contentFingerprint(
    inputs.contentDir,
    {
      date,
      site,
      domains: inputs.domains ?? null,
      version: 1,
      ...(look !== null ? { look } : {}),
      ...(policy !== null ? { policy } : {}),
    },
    digests,
  );
  const current = await currentSummary(inputs.outDir, fingerprint);
  if (current !== null) await removeAbandoned(inputs.outDir);
  const rows = (file: string) => Math.max(0, (lines.get(file) ?? 0) - 1);
  const size = {
    works: rows("audiovisuals.csv"),
    domains: inputs.domains?.length ? new Set(inputs.domains).size : rows("domains.csv"),
  };
  return { date, fingerprint, current, size };
}

async function currentSummary(outDir: string, fingerprint: string): Promise<UpToDate["current"]> {
  try {
    const read = async (rel: string): Promise<unknown> =>
      JSON.parse((await readCurrent(outDir, rel))?.toString("utf8") ?? "null");
    const inputs = (await read(INPUTS_PATH)) as { fingerprint?: string; files?: number } | null;
    if (inputs?.fingerprint !== fingerprint) return null;
    // Recorded by the build (older ones did not): else the manifest's lines, less its header.
    const files =
      inputs.files ?? countLines(readFileSync(path.join(path.resolve(outDir), MANIFEST_PATH))) - 1;
    // Written by the build that recorded this fingerprint: read as it is, without the schema.
    const domains = (
      (await read(BUILD_INFO_PATH)) as { domains: { domain: string }[] }
    ).domains.map((d) => d.domain);
    return { files, written: 0, unchanged: files, removed: 0, bytesWritten: 0, domains };
  } catch {
    return null; // an unreadable record only means the work is done again
  }
}
