import { UserError } from "../errors.ts";
import type { BuildInfo } from "../output/build-info.ts";
import type { FileEntry } from "../output/tree.ts";
import { hostTable } from "../serve/routes.ts";

/**
 * The Wrangler configuration (wrangler.json) of the Worker that serves a build: the bundle of
 * bundle.ts as its module, deployed as it is, on the routes of every domain and media host, with
 * one of two ways to reach the files (see cloudflare.ts):
 *
 * - `ASSETS`: Workers static assets over the build folder. `run_worker_first` sends every request
 *   to the Worker (nothing under `_api/` or `_catalogue/` is ever served as a file), and
 *   `html_handling`/`not_found_handling` "none" keep the asset store from redirecting
 *   `…/index.html` or answering its own 404 when the Worker reads a file.
 * - R2: the bucket `catalogue publish --to s3://BUCKET/PREFIX` writes to, for builds of any size.
 */

/**
 * The runtime's behaviour the Worker is tested with: the workerd inside the Miniflare 3 of the
 * test suite (workerd 1.20250718) implements this date, so tests and deployment agree.
 */
export const COMPATIBILITY_DATE = "2025-07-18";

/** Workers static assets per version: 20,000 files (100,000 on paid plans), 25 MiB per file. */
export const ASSET_LIMITS = { files: 20_000, paidFiles: 100_000, bytes: 25 * 1024 * 1024 } as const;

export const BUNDLE_FILE = "worker.js";

export interface R2Location {
  bucket: string;
  /** The prefix publish writes under ("" for the bucket's root), without slashes at its ends. */
  prefix: string;
}

export interface WorkersOptions {
  name: string;
  /** The build folder, relative to the folder of wrangler.json (Wrangler resolves it from there). */
  assetsDir: string;
  r2?: R2Location;
}

export type WranglerConfig = Record<string, unknown>;

export function wranglerConfig(info: BuildInfo, options: WorkersOptions): WranglerConfig {
  const store =
    options.r2 === undefined
      ? {
          assets: {
            directory: options.assetsDir,
            binding: "ASSETS",
            run_worker_first: true,
            html_handling: "none",
            not_found_handling: "none",
          },
        }
      : {
          r2_buckets: [{ binding: "CATALOGUE_BUCKET", bucket_name: options.r2.bucket }],
          vars: { CATALOGUE_PREFIX: options.r2.prefix },
        };
  return {
    name: options.name,
    main: BUNDLE_FILE,
    compatibility_date: COMPATIBILITY_DATE,
    // The module is the tested bundle: Wrangler uploads it as it is instead of bundling it again.
    no_bundle: true,
    routes: workerRoutes(info),
    ...store,
  };
}

/**
 * Route patterns (`host/path*`; Wrangler finds each host's zone): a domain's base path and all
 * below it, and each media folder on a host of its own.
 */
function workerRoutes(info: BuildInfo): string[] {
  const routes: string[] = [];
  const add = (host: string, prefix: string, bare: boolean) => {
    // A prefix under one already routed adds nothing.
    if (routes.some((r) => r.endsWith("/*") && `${host}${prefix}/`.startsWith(r.slice(0, -1))))
      return;
    // A base path without its slash is routed too: the Worker redirects it to the site.
    if (bare && prefix !== "") routes.push(`${host}${prefix}`);
    routes.push(`${host}${prefix}/*`);
  };
  for (const host of hostTable(info)) {
    if (host.domain !== null) add(host.host, host.domain.info.base_path, true);
  }
  for (const host of hostTable(info))
    for (const media of host.media) add(host.host, media.slice(0, -1), false);
  return routes;
}

/** `BUCKET` or `BUCKET/PREFIX` of `--r2`, with R2's rules for bucket names. */
export function parseR2(value: string): R2Location {
  const slash = value.indexOf("/");
  const bucket = slash === -1 ? value : value.slice(0, slash);
  const prefix = slash === -1 ? "" : value.slice(slash + 1).replace(/^\/+|\/+$/g, "");
  if (!/^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new UserError(
      `--r2 ${value}: a bucket name is 3 to 63 lowercase letters, digits and hyphens (as in s3://BUCKET/PREFIX of catalogue publish)`,
    );
  }
  return { bucket, prefix };
}

/**
 * Refuses a build that static assets cannot hold (a file over 25 MiB, more files than any plan
 * takes) and warns past the free plan's count; the message names the way out (`--r2`).
 */
export function checkAssetLimits(files: ReadonlyMap<string, FileEntry>): string | null {
  for (const [rel, { size }] of files) {
    if (size > ASSET_LIMITS.bytes)
      throw new UserError(
        `${rel}: ${size} bytes, over the 25 MiB Workers static assets take per file; serve the build from R2 with --r2 BUCKET`,
      );
  }
  // The manifest itself is in the folder too, and is uploaded with the rest.
  const count = files.size + 1;
  if (count > ASSET_LIMITS.paidFiles) {
    throw new UserError(
      `the build has ${count} files, over the ${ASSET_LIMITS.paidFiles} Workers static assets take per version on any plan; serve it from R2 with --r2 BUCKET`,
    );
  }
  if (count > ASSET_LIMITS.files)
    return `the build has ${count} files: Workers static assets take ${ASSET_LIMITS.files} per version on the free plan, ${ASSET_LIMITS.paidFiles} on paid plans; --r2 BUCKET has no limit`;
  return null;
}
