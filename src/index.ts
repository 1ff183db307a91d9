// The public face of catalogue: the pipeline as importable code. Internal modules may change freely.
// build() makes no process-wide setting. A caller that wants the command's import speed sets
// ELEVENTY_SKIP_ESM_RESOLVER=true before importing this (see src/cli/main.ts for why), and may
// tune V8's heap around a build as the commands do (src/util/memory.ts).
export { build, type BuildOptions, type BuildSummary } from "./pipeline/pipeline.ts";
export type { Reporter } from "./util/reporter.ts";
export { checkContent, loadCatalogue, type Catalogue, type ContentCheck } from "./content/load.ts";
export type { Audiovisual, Director, Domain, Ordering } from "./content/schema.ts";
export { InputError, UserError, formatProblem, formatWarning, type Problem } from "./errors.ts";
export { domainView, type DomainView, type ListedWork } from "./model/domain-view.ts";
export { readBuildInfo, type BuildInfo, type DomainInfo } from "./output/build-info.ts";
export { OutputTree } from "./output/tree.ts";
