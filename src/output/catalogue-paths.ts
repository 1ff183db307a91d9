/**
 * The build's own records in `_catalogue/`. Kept free of other imports than the folder's name
 * (util/product-paths.ts, which imports nothing): the no-change check reads them before anything
 * else loads.
 */
import { RECORDS_FOLDER } from "../util/product-paths.ts";

export const CATALOGUE_DIR = RECORDS_FOLDER;

/** Every file of the output with its size and key or MD5 (written by tree.ts, read by publishing). */
export const MANIFEST_PATH = `${CATALOGUE_DIR}/files.tsv`;

/** Hosts, domains, base paths and media folders: what servers route by (build-info.ts). */
export const BUILD_INFO_PATH = `${CATALOGUE_DIR}/build.json`;

/** The fingerprint of the inputs a build was made from, and each domain's inputs key. */
export const INPUTS_PATH = `${CATALOGUE_DIR}/inputs.json`;
