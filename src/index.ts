// The public face of catalogue: the pipeline as importable code. Internal modules may change freely.
export { build, type BuildOptions, type BuildSummary } from "./pipeline/pipeline.ts";
export type { Reporter } from "./util/reporter.ts";
export { checkContent, loadCatalogue, type Catalogue, type ContentCheck } from "./content/load.ts";
export type { Audiovisual, Director, Domain, Ordering } from "./content/schema.ts";
export { InputError, UserError, formatProblem, formatWarning, type Problem } from "./errors.ts";
export { domainView, type DomainView, type ListedWork } from "./model/domain-view.ts";
export { readBuildInfo, type BuildInfo, type DomainInfo } from "./output/build-info.ts";
export { OutputTree } from "./output/tree.ts";
