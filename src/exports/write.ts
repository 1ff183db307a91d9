import type { DomainView } from "../model/listing.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { OutputTree } from "../output/tree.ts";

/** Writes the three spreadsheets of one domain (export_excel, export_up_movies, export_down_movies). */
export async function writeExports(_tree: OutputTree, _view: DomainView, _info: DomainInfo): Promise<void> {
  // Filled in by the exports issue.
}
