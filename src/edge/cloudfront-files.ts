import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { readBuildInfo } from "../output/build-info.ts";
import { hostTable } from "../serve/routes.ts";
import {
  cloudFrontFunction,
  FUNCTION_MAX_BYTES,
  keyValueStore,
  responseHeadersPolicy,
} from "./cloudfront.ts";

/** CloudFront's limit on alternate domain names (CNAMEs) per distribution. */
const MAX_ALIASES = 100;

const FUNCTION_FILE = "function.js";
export const POLICY_FILE = "response-headers-policy.json";
const KVS_FILE = "key-value-store.json";

/** What `catalogue config cloudfront` writes into `out`; returns the files written. */
export async function writeCloudFrontFiles(options: {
  dir: string;
  out: string;
}): Promise<string[]> {
  const real = await realpath(options.dir).catch(() => {
    throw new UserError(
      `${options.dir} does not exist: run "catalogue build --out ${options.dir}" first, or pass --dir`,
    );
  });
  const info = await readBuildInfo(real);
  const hosts = hostTable(info).length;
  if (hosts > MAX_ALIASES) {
    throw new UserError(
      `the build has ${hosts} hosts; a CloudFront distribution takes at most ${MAX_ALIASES} alternate domain names: split the domains between distributions`,
    );
  }
  const code = cloudFrontFunction(info);
  const size = Buffer.byteLength(code);
  if (size > FUNCTION_MAX_BYTES) {
    throw new UserError(
      `the CloudFront Function would be ${size} bytes, over CloudFront's ${FUNCTION_MAX_BYTES}: split the domains between distributions`,
    );
  }
  await mkdir(options.out, { recursive: true });
  const files: [string, string][] = [
    [FUNCTION_FILE, code],
    [POLICY_FILE, `${JSON.stringify(responseHeadersPolicy(info), null, 2)}\n`],
    [KVS_FILE, `${JSON.stringify(keyValueStore(info), null, 2)}\n`],
  ];
  for (const [name, text] of files) await writeFile(path.join(options.out, name), text);
  return files.map(([name]) => path.join(options.out, name));
}
