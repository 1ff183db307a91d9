import { handle, type Assets } from "./worker.ts";
import { r2Assets, type R2Bucket } from "./r2.ts";

/**
 * The module a Cloudflare Worker runs (bundled by bundle.ts, configured by wrangler.ts): the edge
 * function over whichever binding the Worker was deployed with. `ASSETS` is Workers static
 * assets over the build folder; `CATALOGUE_BUCKET` is an R2 bucket that `catalogue publish`
 * fills, its files under the `CATALOGUE_PREFIX` variable (empty for the bucket's root).
 */

export interface CloudflareEnv {
  ASSETS?: Assets;
  CATALOGUE_BUCKET?: R2Bucket;
  CATALOGUE_PREFIX?: string;
}

/**
 * One adapter per bucket binding: the edge function keeps its copy of build.json per `ASSETS`
 * object, so a new adapter on every request would read build.json on every request.
 */
const adapters = new WeakMap<R2Bucket, Assets>();

function assetsOf(env: CloudflareEnv): Assets {
  if (env.ASSETS !== undefined) return env.ASSETS;
  const bucket = env.CATALOGUE_BUCKET;
  if (bucket === undefined)
    throw new Error(
      "the Worker has neither an ASSETS nor a CATALOGUE_BUCKET binding: deploy it with the wrangler.json of `catalogue config workers`",
    );
  let assets = adapters.get(bucket);
  if (assets === undefined) adapters.set(bucket, (assets = r2Assets(bucket, env.CATALOGUE_PREFIX)));
  return assets;
}

export default {
  fetch: async (request: Request, env: CloudflareEnv) => handle(request, { ASSETS: assetsOf(env) }),
};
