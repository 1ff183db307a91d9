import { setImmediate as nextTurn } from "node:timers/promises";
import { EXPORT_KINDS, urlFolder, urlPath } from "../api/layout.ts";
import { openapiFile } from "../api/openapi.ts";
import { apiFiles, pageCount } from "../api/pages.ts";
import { siteLanguage } from "../content/languages.ts";
import type { ProcessedImage } from "../media/processed-images.ts";
import type { DomainView, ListedWork } from "../model/domain-view.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { FileData, FileSink } from "../output/sink.ts";
import type { PolicySources } from "../web/policy.ts";
import { md5 } from "../util/hash.ts";

/** API files serialised between two turns of the event loop. */
const FILES_PER_TURN = 1000;

export const exportFileName = (domain: string, kind: string, date: string) =>
  `${kind}-${domain}-${date}.xlsx`;

/** What `_catalogue/build.json` says of one domain. */
export function domainInfo(
  view: DomainView,
  site: boolean,
  contentSecurity?: PolicySources,
): DomainInfo {
  const { domain } = view;
  const count = view.orders.name.length;
  return {
    domain: domain.domain,
    name: domain.name,
    base_url: domain.base_url,
    media_url: domain.media_url,
    locale: domain.locale,
    default_ordering: domain.default_ordering,
    base_path: urlPath(domain.base_url),
    media_folder: urlFolder(domain.media_url),
    count,
    total_pages: pageCount(count),
    exports: Object.fromEntries(
      EXPORT_KINDS.map((kind) => [kind, exportFileName(domain.domain, kind, view.date)]),
    ),
    site,
    ...(domain.languages !== undefined ? { languages: domain.languages.map(siteLanguage) } : {}),
    ...(contentSecurity !== undefined
      ? { content_security: contentSecurity as Record<string, string[]> }
      : {}),
  };
}

/**
 * A key for a small text file of the API (an error body, the OpenAPI description): its MD5, made
 * here. Every file of a domain's API is then keyed, and the writer threads hash nothing: the
 * first file without a key, reached only after a domain's pages, sent their optimised code back
 * to be compiled again.
 */
const textKey = (data: FileData) => (typeof data === "string" ? md5(data) : undefined);

/**
 * The API files of one domain under its own folder: every API response and the OpenAPI
 * description (the spreadsheets are written by `writeExports`). Domains never share these paths.
 */
export async function writeDomainApi(
  sink: FileSink,
  view: DomainView,
  images: ReadonlyMap<string, ProcessedImage>,
  workDigests: ReadonlyMap<ListedWork, string>,
): Promise<void> {
  const { domain } = view;
  const imageUrl = (rel: string) => `${domain.media_url}/${images.get(rel)!.file}`;
  let files = 0;
  for (const run of apiFiles(view, imageUrl, workDigests)) {
    for (const file of run) {
      const waiting =
        "key" in file
          ? sink.writeKeyed(file.path, file.key, file)
          : sink.write(file.path, file.data, textKey(file.data));
      if (waiting !== undefined) await waiting;
      // A file kept as it was awaits nothing that lets the event loop turn: without a turn now and
      // then, the spreadsheets' next steps (a temporary folder, a thread's answer) wait for the
      // whole domain.
      if (++files % FILES_PER_TURN === 0) await nextTurn();
    }
  }
  const [openapiPath, openapi] = openapiFile(domain);
  await sink.write(openapiPath, openapi, textKey(openapi));
  // The pages are on disk before the next domain starts: a failing write (a full disk) stops the
  // build there, and the wait is short (at most twelve batches per writer thread are in flight).
  await sink.flush();
}
