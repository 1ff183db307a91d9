import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { readBuildInfo } from "../output/build-info.ts";
import { readManifest } from "../output/tree.ts";
import { workerBundle } from "./bundle.ts";
import { BUNDLE_FILE, checkAssetLimits, parseR2, wranglerConfig } from "./wrangler.ts";

/** What `catalogue config workers` writes: the Worker's module and its wrangler.json, in `out`. */
export interface WorkerFilesOptions {
  /** The build folder (the `dist` link: wrangler.json names it, so a redeploy takes the newest build). */
  dir: string;
  out: string;
  /** `BUCKET` or `BUCKET/PREFIX`; static assets when absent. */
  r2?: string;
  name: string;
}

const CONFIG_FILE = "wrangler.json";

export async function writeWorkerFiles(
  options: WorkerFilesOptions,
): Promise<{ files: string[]; warnings: string[] }> {
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(options.name)) {
    throw new UserError(
      `--name ${options.name}: a Worker's name is up to 63 lowercase letters, digits and hyphens, not starting or ending with a hyphen`,
    );
  }
  const r2 = options.r2 === undefined ? undefined : parseR2(options.r2);
  const real = await realpath(options.dir).catch(() => {
    throw new UserError(
      `${options.dir} does not exist: run "catalogue build --out ${options.dir}" first, or pass --dir`,
    );
  });
  const info = await readBuildInfo(real);
  const warnings: string[] = [];
  if (r2 === undefined) {
    const warning = checkAssetLimits(await readManifest(real));
    if (warning !== null) warnings.push(warning);
  }
  // Relative to the configuration's folder, with forward slashes: the file moves with its folder.
  const assetsDir =
    path.relative(path.resolve(options.out), path.resolve(options.dir)).split(path.sep).join("/") ||
    ".";
  const config = wranglerConfig(info, { name: options.name, assetsDir, r2 });
  const code = await workerBundle();
  await mkdir(options.out, { recursive: true });
  const files = [path.join(options.out, BUNDLE_FILE), path.join(options.out, CONFIG_FILE)];
  await writeFile(files[0]!, code);
  await writeFile(files[1]!, `${JSON.stringify(config, null, 2)}\n`);
  return { files, warnings };
}
