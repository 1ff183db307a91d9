import { readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { Miniflare, type MiniflareOptions } from "miniflare";
import { workerBundle } from "../../src/edge/bundle.ts";
import { wranglerConfig, type R2Location, type WranglerConfig } from "../../src/edge/wrangler.ts";
import { readBuildInfo } from "../../src/output/build-info.ts";
import { MANIFEST_PATH } from "../../src/output/tree.ts";
import { mapLimit } from "../../src/util/concurrency.ts";

/**
 * The Worker of `catalogue config workers` run in workerd through Miniflare 3, listening on
 * 127.0.0.1: the bundle users deploy, with the Miniflare options translated from the generated
 * wrangler.json (what Wrangler itself does for `wrangler dev`). Its files come from the build
 * folder as static assets, or from Miniflare's local R2 filled as `catalogue publish` fills a
 * bucket, under a prefix as publish's `s3://BUCKET/PREFIX` puts them.
 */

export type Store = "assets" | "r2";

export interface RunningWorker {
  port: number;
  /** Publishes the build `dist` now shows: a new version's assets, or an upload to the bucket. */
  deploy(): Promise<void>;
  stop(): Promise<void>;
}

export const TEST_R2: R2Location = { bucket: "catalogue-test", prefix: "site/prod" };

let bundle: Promise<string> | undefined;
/** One bundle per test process (it is the same module every time). */
export const testBundle = () => (bundle ??= workerBundle());

interface AssetsConfig {
  directory: string;
  binding: string;
  run_worker_first: boolean;
  html_handling: "none";
  not_found_handling: "none";
}

/** wrangler.json → Miniflare's options, for the fields wrangler.ts writes. */
export function miniflareOptions(config: WranglerConfig, code: string, port = 0): MiniflareOptions {
  const assets = config.assets as AssetsConfig | undefined;
  const buckets = config.r2_buckets as { binding: string; bucket_name: string }[] | undefined;
  return {
    modules: [{ type: "ESModule", path: config.main as string, contents: code }],
    compatibilityDate: config.compatibility_date as string,
    host: "127.0.0.1",
    port,
    ...(config.vars !== undefined && { bindings: config.vars as Record<string, string> }),
    ...(buckets !== undefined && {
      r2Buckets: Object.fromEntries(buckets.map((b) => [b.binding, b.bucket_name])),
      r2Persist: false,
    }),
    ...(assets !== undefined && {
      assets: {
        directory: assets.directory,
        binding: assets.binding,
        routerConfig: {
          has_user_worker: true,
          invoke_user_worker_ahead_of_assets: assets.run_worker_first,
        },
        assetConfig: {
          html_handling: assets.html_handling,
          not_found_handling: assets.not_found_handling,
        },
      },
    }),
  };
}

async function configFor(dist: string, store: Store): Promise<WranglerConfig> {
  // A deployment is a snapshot: the version `dist` shows now, not the link a later build moves.
  const version = await realpath(dist);
  const info = await readBuildInfo(version);
  return wranglerConfig(info, {
    name: "catalogue",
    assetsDir: version,
    r2: store === "r2" ? TEST_R2 : undefined,
  });
}

export async function startWorkerd(dist: string, store: Store): Promise<RunningWorker> {
  const code = await testBundle();
  const mf = new Miniflare(miniflareOptions(await configFor(dist, store), code));
  const url = await mf.ready;
  const deploy = async () => {
    if (store === "assets")
      await mf.setOptions(miniflareOptions(await configFor(dist, store), code, Number(url.port)));
    else await publishToR2(mf, dist, TEST_R2.prefix);
  };
  if (store === "r2") await publishToR2(mf, dist, TEST_R2.prefix);
  return { port: Number(url.port), deploy, stop: () => mf.dispose() };
}

/** The part of Miniflare's R2 bucket proxy used here (its own types need @cloudflare/workers-types). */
interface LocalBucket {
  put(key: string, value: ArrayBuffer): Promise<unknown>;
  delete(keys: string[]): Promise<void>;
}

/** The keys each local bucket holds (what publish knows from its manifest). */
const published = new WeakMap<Miniflare, Set<string>>();

/**
 * The build in the bucket as `catalogue publish --to s3://BUCKET/PREFIX` leaves it: each file at
 * PREFIX/<path>, the build's manifest excepted, links never followed, and nothing else. (Publish
 * uploads the files its manifest lists; the folder is walked here because the fixture places
 * HTML pages by hand.)
 */
async function publishToR2(mf: Miniflare, dist: string, prefix: string) {
  const bucket = (await mf.getR2Bucket("CATALOGUE_BUCKET")) as unknown as LocalBucket;
  const root = await realpath(dist);
  const files = (await regularFiles(root)).filter((rel) => rel !== MANIFEST_PATH);
  await mapLimit(files, 16, async (rel) => {
    // Its own ArrayBuffer: the proxy refuses a view into Node's shared pool.
    await bucket.put(
      `${prefix}/${rel}`,
      new Uint8Array(await readFile(path.join(root, rel))).buffer,
    );
  });
  const keys = new Set(files.map((rel) => `${prefix}/${rel}`));
  const stale = [...(published.get(mf) ?? [])].filter((key) => !keys.has(key));
  published.set(mf, keys);
  if (stale.length > 0) await bucket.delete(stale);
}

/** Paths of the regular files under `root`, without entering links (a recursive readdir follows them). */
async function regularFiles(root: string, rel = ""): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await regularFiles(root, child)));
    else if (entry.isFile()) found.push(child);
  }
  return found;
}
