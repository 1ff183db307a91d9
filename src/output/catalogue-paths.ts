/** The build's own records in `_catalogue/`. Kept free of imports: the no-change check reads them before anything else loads. */

/** Every file of the output with its size and key or MD5 (written by tree.ts, read by publishing). */
export const MANIFEST_PATH = "_catalogue/files.tsv";

/** Hosts, domains, base paths and media folders: what servers route by (build-info.ts). */
export const BUILD_INFO_PATH = "_catalogue/build.json";

/** The fingerprint of the inputs a build was made from, and each domain's inputs key. */
export const INPUTS_PATH = "_catalogue/inputs.json";
