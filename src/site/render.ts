import type { Reporter } from "../build.ts";
import type { Catalogue } from "../content/load.ts";
import type { DomainView } from "../model/listing.ts";
import type { DomainInfo } from "../output/build-info.ts";
import type { OutputTree } from "../output/tree.ts";

export interface SiteInput {
  catalogue: Catalogue;
  views: DomainView[];
  infos: DomainInfo[];
  date: string;
  cacheDir: string;
  reporter: Reporter;
}

/** Renders the HTML catalogue of every built domain into the output. */
export async function renderSite(_tree: OutputTree, _input: SiteInput): Promise<void> {
  // Filled in by the HTML catalogue issue.
}
