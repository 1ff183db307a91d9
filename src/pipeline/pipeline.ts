import { startFromNameOrders } from "../model/domain-view.ts";
import type { FileEntries } from "../output/entries.ts";
import { OutputTree, type TreeSummary } from "../output/tree.ts";
import { readPrevious, writeRecords } from "./commit.ts";
import { readInputs, type ReadOptions } from "./read-inputs.ts";
import { Stages } from "./stages.ts";
import { checkUpToDate, type UpToDate } from "./up-to-date.ts";
import { keepDomains, keyBase, writeDomain, type DomainResult } from "./write-domain.ts";

export interface BuildOptions extends ReadOptions {
  /** Where processed images are cached between builds. */
  cacheDir?: string;
  /** Bytes of output packed before a batch goes to a writer thread (tests force threads with a small one). */
  writeBatchBytes?: number;
  /** False: no MARC files (the benchmark's peer, to measure what they cost); default true. */
  marcFiles?: boolean;
  /** The no-change check's answer for these options when the caller made it already (the command line, before loading this). */
  checked?: UpToDate;
}

export interface BuildSummary extends TreeSummary {
  date: string;
  domains: string[];
  seconds: number;
  /** True when the inputs were those of the current output, so nothing was done. */
  skipped: boolean;
  /** Every file of the new output (size, key or MD5, fresh when it differs from the previous version), for a publish that follows (deploy); absent when skipped. */
  manifest?: FileEntries;
  /** The previous version's inputs keys, for a publish planned from the changes (publish/changes.ts). */
  previousKeys?: Record<string, string>;
}

/**
 * The whole pipeline: load → validate → plan → render → write, atomically. Makes no process-wide
 * setting: the command that runs it tunes V8's heap (src/util/memory.ts) and sets the environment.
 */
export async function build(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const { date, fingerprint, current } = options.checked ?? (await checkUpToDate(options));
  if (current !== null)
    return { ...current, date, seconds: (performance.now() - started) / 1000, skipped: true };
  const inputs = await readInputs(options, date);
  const { reporter, domains } = inputs;
  const tree = await OutputTree.open(options.outDir, { batchBytes: options.writeBatchBytes });
  let stages: Stages | null = null;
  try {
    stages = await Stages.start(tree, inputs, options.marcFiles);
    // Domains whose inputs are those of the previous build keep their folder as it is.
    const previous = await readPrevious(tree, options.outDir);
    startFromNameOrders(inputs.catalogue, previous.nameOrders);
    const base = await keyBase(inputs, options.marcFiles);
    // One domain at a time: its view, keys and pages are released before the next one's are
    // made, so memory is bounded by the largest domain, not by their number.
    const results: DomainResult[] = [];
    for (const domain of domains)
      results.push(await writeDomain(tree, stages, inputs, domain, previous.keys, base));
    const unchanged = results.filter((r) => r.kept).map((r) => r.domain);
    if (unchanged.length > 0) keepDomains(tree, unchanged, domains);
    await stages.finish();
    reporter.stage(
      `built the API and exports of ${domains.length - unchanged.length} domain(s)${unchanged.length > 0 ? ` (${unchanged.length} unchanged, kept)` : ""}`,
    );
    const partial = options.domains !== undefined;
    await writeRecords(tree, options.outDir, inputs, results, previous, fingerprint, partial);
    reporter.stage("switching to the new output");
    const summary = await tree.commit();
    return {
      ...summary,
      date,
      domains: domains.map((d) => d.domain),
      seconds: (performance.now() - started) / 1000,
      skipped: false,
      manifest: tree.entries,
      previousKeys: previous.keys,
    };
  } catch (error) {
    // Nothing may still write when the tree is dropped.
    await stages?.stop();
    await tree.abort();
    throw error;
  }
}
