import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { EXPORT_KINDS, MARC_FORMAT_NAMES, marcPath, type ExportKind } from "../api/layout.ts";
import { temporaryFailure } from "../exports/write.ts";
import type { MarcStatus } from "../marc/map.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import { browseDigest, inputsDigest, synopsesDigest } from "../model/work-digests.ts";
import type { FileSink } from "../output/sink.ts";
import type { OutputTree } from "../output/tree.ts";
import { codeVersion, type CodeConcern } from "../util/code-version.ts";
import { settleAll } from "../util/concurrency.ts";
import { stringsFor } from "../web/i18n.ts";
import { marcJob, sendWorks, writeMarcJob, type MarcJobInput } from "./marc-job.ts";
import { marcDomain, marcWork } from "./marc-works.ts";

/**
 * The MARC 21 files of a domain's three export sets (the spreadsheets' works: all listed, the
 * ups, the downs as deleted records), each as ISO 2709 and MARCXML beside the spreadsheet.
 *
 * Both files of a set share a key, a digest of everything their bytes are made of (marcKey): when
 * the previous build wrote them with that key they are kept as they are, and no record is made.
 */

/** The works of each set, in name order, and the status their records carry. */
const SETS: Record<ExportKind, { works: (view: DomainView) => ListedWork[]; status: MarcStatus }> =
  {
    export_excel: { works: (view) => view.orders.name, status: "new" },
    export_up_movies: { works: (view) => view.ups, status: "new" },
    export_down_movies: { works: (view) => view.downs, status: "deleted" },
  };

/**
 * What makes the MARC files' bytes: the MARC layer, the adapter from the model and the job (what
 * this module loads), and the platform's ICU, whose language names, lists and word boundaries
 * the records hold.
 */
export const MARC_CODE: CodeConcern = {
  entries: ["src/pipeline/marc-files.ts"],
  engines: () => [`icu ${process.versions.icu}`, `unicode ${process.versions.unicode}`],
};

/** Writes one set's two files: writeMarcJob here, or the same in a writer thread. */
export type MarcWriter = (input: MarcJobInput) => Promise<unknown>;

/** Records from which a set is written in a writer thread even if none is running yet. */
const MARC_THREAD_RECORDS = 5000;

/** MARC files go to a writer thread when the threads run anyway, or when they are large. */
export const marcWriter =
  (tree: OutputTree): MarcWriter =>
  async (input) =>
    tree.threadsStarted || input.records >= MARC_THREAD_RECORDS
      ? tree.runInThread(marcJob(input))
      : writeMarcJob(input);

/** Writes the MARC files of one domain's three sets whose key changed. */
export async function writeMarcExports(
  tree: FileSink,
  view: DomainView,
  workDigests: ReadonlyMap<ListedWork, string>,
  write: MarcWriter = writeMarcJob,
): Promise<void> {
  const { domain } = view;
  const strings = stringsFor(domain.locale);
  const target = marcDomain(domain, view.date);
  const todo: { kind: ExportKind; key: string; works: ListedWork[] }[] = [];
  for (const kind of EXPORT_KINDS) {
    const works = SETS[kind].works(view);
    const key = marcKey(view, kind, strings.digest, works, workDigests);
    // `every`, not `some`: both files are written again when either is missing or stale.
    const kept = MARC_FORMAT_NAMES.map((format) =>
      tree.reuse(marcPath(domain.domain, kind, format), key),
    );
    if (kept.every(Boolean)) continue;
    todo.push({ kind, key, works });
  }
  if (todo.length === 0) return;
  const dir = await mkdtemp(path.join(tmpdir(), "catalogue-marc-")).catch((error: unknown) => {
    throw temporaryFailure(error);
  });
  // The ups among the listed works, when both sets are due, are copied from the listing's
  // records (the same works with the same status: the same bytes), not made again.
  const listing = todo.find((set) => set.kind === "export_excel");
  const ups = todo.find((set) => set.kind === "export_up_movies");
  const marks =
    listing && ups && SETS[listing.kind].status === SETS[ups.kind].status
      ? subsetMarks(listing.works, ups.works)
      : null;
  const file = (kind: ExportKind, format: "marc" | "marcxml") =>
    path.join(dir, `${kind}-${format}`);
  const moveIn = async (kind: ExportKind, key: string) => {
    for (const format of MARC_FORMAT_NAMES)
      await tree.moveFrom(marcPath(domain.domain, kind, format), file(kind, format), key);
  };
  try {
    // The sets handed over at once (the last writer thread writes them in turn); every one settled
    // before the first failure is thrown, so that none still writes when the directory goes.
    await settleAll(
      todo
        .filter((set) => marks === null || set !== ups)
        .map(async ({ kind, key, works }) => {
          const subset = marks !== null && kind === listing!.kind;
          const sent = sendWorks(adapted(works, domain, strings.categories));
          const input: MarcJobInput = {
            iso2709: file(kind, "marc"),
            marcxml: file(kind, "marcxml"),
            domain: target,
            works: sent.port,
            records: works.length,
            status: SETS[kind].status,
            ...(subset
              ? {
                  subset: {
                    iso2709: file(ups!.kind, "marc"),
                    marcxml: file(ups!.kind, "marcxml"),
                    marks,
                  },
                }
              : {}),
          };
          // What failed making the works first: the job then failed for want of them.
          await settleAll([
            sent.done,
            write(input)
              .catch((error: unknown) => {
                throw temporaryFailure(error);
              })
              .finally(() => sent.close()),
          ]);
          await moveIn(kind, key);
          if (subset) await moveIn(ups!.kind, ups!.key);
        }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A 1 for each of `all` that `some` holds, when `some` is a subsequence of `all` (the same
 * objects in the same order: the ups among the listed works, both in name order); else null (an up
 * whose window has already ended is not listed).
 */
export function subsetMarks(
  all: readonly ListedWork[],
  some: readonly ListedWork[],
): Uint8Array | null {
  const marks = new Uint8Array(all.length);
  let next = 0;
  for (let i = 0; i < all.length && next < some.length; i++)
    if (all[i] === some[next]) {
      marks[i] = 1;
      next++;
    }
  return next === some.length ? marks : null;
}

function* adapted(
  works: readonly ListedWork[],
  domain: DomainView["domain"],
  categories: Readonly<Record<string, string>>,
) {
  for (const listed of works) yield marcWork(listed, domain, categories);
}

/**
 * A set's key: the MARC code's version, the set and its status, the build date (005), what of the
 * domain the records show (its language, MARC codes, watch link, category labels) and each work
 * in order: its inputs digest (the work, director, window) and what only pages and records show
 * (its synopses, browsing columns and director's heading), which the inputs digest leaves out.
 */
export function marcKey(
  view: DomainView,
  kind: ExportKind,
  stringsDigest: string,
  works: readonly ListedWork[],
  workDigests: ReadonlyMap<ListedWork, string>,
  version: string = codeVersion(MARC_CODE),
): string {
  const { domain } = view;
  const hash = createHash("md5").update(
    JSON.stringify([
      version,
      kind,
      SETS[kind].status,
      view.date,
      domain.locale,
      domain.marc_org_code ?? null,
      domain.marc_genre_source ?? null,
      domain.watch_url ?? null,
      stringsDigest,
      works.length,
    ]),
  );
  let pending = "";
  for (const listed of works) {
    pending += `\n${inputsDigest(workDigests, listed)}${synopsesDigest(listed.work)}\t${browseDigest(listed.work)}\t${listed.director?.heading ?? ""}`;
    if (pending.length >= 32_768) {
      hash.update(pending);
      pending = "";
    }
  }
  return hash.update(pending).digest("hex");
}
