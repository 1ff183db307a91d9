import { nameOrders, type NameOrders } from "../model/domain-view.ts";
import {
  BUILD_INFO_PATH,
  buildInfoBytes,
  describeBuild,
  parseBuildInfo,
  type DomainEntry,
} from "../output/build-info.ts";
import { INPUTS_PATH } from "../output/catalogue-paths.ts";
import type { OutputTree } from "../output/tree.ts";
import { readNameOrders, writeNameOrders } from "./name-orders.ts";
import type { ReadInputs } from "./read-inputs.ts";
import type { DomainResult } from "./write-domain.ts";

/** What the build keeps of the previous one's records. */
export interface Previous {
  /** The domains' inputs keys it recorded (none: every domain is built). */
  keys: Record<string, string>;
  /** The orders of names it ranked, by locale. */
  nameOrders: NameOrders;
}

/** _catalogue/inputs.json. */
interface InputsRecord {
  fingerprint: string;
  domains: Record<string, string>;
  files?: number;
}

/** The previous build's domain keys and name orders. */
export async function readPrevious(tree: OutputTree, outDir: string): Promise<Previous> {
  return { keys: await readDomainKeys(tree), nameOrders: await readNameOrders(outDir) };
}

/** The domains' inputs keys the previous build recorded (none: every domain is built). */
async function readDomainKeys(tree: OutputTree): Promise<InputsRecord["domains"]> {
  try {
    const inputs = JSON.parse(
      (await tree.readPrevious(INPUTS_PATH))?.toString("utf8") ?? "null",
    ) as Partial<InputsRecord> | null;
    return inputs?.domains ?? {};
  } catch {
    return {};
  }
}

/**
 * Writes the build's records: the build description (build.json), the inputs' record
 * (inputs.json: the fingerprint, the domains' keys, the number of files) and the name orders.
 * With `--domain` (`partial`), the domains not rebuilt keep their files, entries and keys.
 */
export async function writeRecords(
  tree: OutputTree,
  outDir: string,
  inputs: ReadInputs,
  results: DomainResult[],
  previous: Previous,
  fingerprint: string,
  partial: boolean,
): Promise<void> {
  const order = inputs.catalogue.domains.map((d) => d.domain);
  const others = partial
    ? await keepOtherDomains(tree, results, previous, order)
    : { entries: [], keys: {} };
  const entries: DomainEntry[] = [
    ...results.map(({ info }) => ({
      ...info,
      position: order.indexOf(info.domain),
      date: inputs.date,
    })),
    ...others.entries,
  ];
  const domainKeys: Record<string, string> = {};
  for (const { domain, key } of results) domainKeys[domain.domain] = key;
  Object.assign(domainKeys, others.keys);
  await tree.write(BUILD_INFO_PATH, buildInfoBytes(describeBuild(entries)));
  // With the number of files, itself included: a build with nothing to do reports it without reading the manifest.
  await tree.write(
    INPUTS_PATH,
    JSON.stringify({
      fingerprint,
      domains: domainKeys,
      files: tree.held + 1,
    } satisfies InputsRecord) + "\n",
  );
  // With the orders of locales this build did not rank (--domain), for the builds after it.
  await writeNameOrders(outDir, { ...previous.nameOrders, ...nameOrders(inputs.catalogue) });
}

/**
 * With --domain, the domains not rebuilt keep their files; returns their entries of the previous
 * build description and their inputs keys.
 */
async function keepOtherDomains(
  tree: OutputTree,
  results: DomainResult[],
  previous: Previous,
  order: string[],
): Promise<{ entries: DomainEntry[]; keys: Record<string, string> }> {
  const built = new Set(results.map((r) => r.domain.domain));
  const kept = await previousDomains(tree, built);
  // _catalogue/ is rewritten whole; everything outside the rebuilt domains' folders is kept,
  // but media folders only rebuilt domains use (written anew: images they dropped go).
  const overlap = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);
  const rebuiltMedia = results
    .map((r) => `${r.info.media_folder}/`)
    .filter((f) => !kept.some((d) => overlap(`${d.media_folder}/`, f)));
  tree.keepPrevious(
    (rel) =>
      !rel.startsWith("_catalogue/") &&
      !built.has(rel.slice(0, rel.indexOf("/"))) &&
      !rebuiltMedia.some((f) => rel.startsWith(f)),
  );
  // With their own dates; their rows as domains.csv has them now.
  const entries = kept.map((d) => ({
    ...d,
    position: order.includes(d.domain) ? order.indexOf(d.domain) : d.position,
  }));
  // Their inputs keys stay valid with their files.
  const keys = Object.fromEntries(
    Object.entries(previous.keys).filter(([domain]) => !built.has(domain)),
  );
  return { entries, keys };
}

/** With --domain, the domains not rebuilt keep their entry of the previous build description. */
async function previousDomains(tree: OutputTree, built: Set<string>): Promise<DomainEntry[]> {
  const previous = parseBuildInfo(await tree.readPrevious(BUILD_INFO_PATH));
  return previous?.domains.filter((d) => !built.has(d.domain)) ?? [];
}
