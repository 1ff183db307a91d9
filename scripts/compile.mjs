#!/usr/bin/env node
/**
 * Compiles the program once, into lib/: what bin/catalogue.js and the package run, so that no
 * TypeScript is compiled at a user's start (`npm pack` runs it as `prepack` and carries lib/; `npm run compile`, `npm start` and the tests' setup in a clone).
 *
 *   node scripts/compile.mjs [--clean]
 *
 * 1. tsc (tsconfig.compile.json) writes every module of src/ and the template entry .eleventy.ts as
 *    JavaScript, in the same tree (lib/src/…, lib/.eleventy.js), with `.ts` imports rewritten to
 *    `.js`: modules find their neighbours and files relative to themselves as in the sources.
 *    Incremental (lib/.tsbuildinfo) unless --clean, which starts from an empty lib/.
 * 2. The files the modules read beside themselves (ASSETS) are copied.
 * 3. Each entry of BUNDLES becomes one self-contained file made by esbuild: for code that runs
 *    elsewhere than this Node process (a CDN's worker), which the program then ships instead of
 *    bundling at run time.
 * 4. lib/help.txt: the main help as the compiled program prints it (bin/catalogue.js prints it
 *    without loading the program).
 * 5. The digest of the compiled code (src/program.ts codeDigest) is recorded in lib/code-digest,
 *    last: the program reads it instead of hashing lib/ at every start. It is removed first, so
 *    that a compilation that fails leaves none (the program then hashes lib/ itself).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const LIB = path.join(ROOT, "lib");

/** Folders of non-code files that modules read relative to themselves (new URL(…, import.meta.url)). */
const ASSETS = ["src/site/assets"];

/**
 * Prebuilt bundles: `entry` (a source file) → `out` (under lib/bundles/), with esbuild options
 * added to the defaults (bundle everything, ESM, minified). Add an entry here for each bundle the
 * program ships, and read it at run time where src/program.ts's prebuiltBundle(out) says
 * (null when running from the sources: bundle at run time then). The Worker of
 * `config workers` is added below, with the options of src/edge/bundle.ts.
 */
const BUNDLES = [];

if (process.argv.includes("--clean")) rmSync(LIB, { recursive: true, force: true });
const CODE_DIGEST_FILE = "code-digest"; // src/program.ts's name for it (checked below, once compiled)
const HELP_FILE = "help.txt"; // bin/catalogue.js reads it
rmSync(path.join(LIB, CODE_DIGEST_FILE), { force: true });
rmSync(path.join(LIB, HELP_FILE), { force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.compile.json")], {
  stdio: "inherit",
});
for (const folder of ASSETS) {
  rmSync(path.join(LIB, folder), { recursive: true, force: true });
  cpSync(path.join(ROOT, folder), path.join(LIB, folder), { recursive: true });
}
// The Cloudflare Worker, with the options src/edge/bundle.ts bundles it with from the sources.
const { workerBundleOptions, WORKER_BUNDLE_FILE } = await import(
  pathToFileURL(path.join(LIB, "src/edge/bundle.js")).href
);
BUNDLES.push({
  options: { ...workerBundleOptions(ROOT), minify: false, logLevel: "warning" },
  out: WORKER_BUNDLE_FILE,
});
if (BUNDLES.length > 0) {
  const esbuild = await import("esbuild");
  mkdirSync(path.join(LIB, "bundles"), { recursive: true });
  for (const { entry, out, options = {} } of BUNDLES) {
    await esbuild.build({
      ...(entry !== undefined ? { entryPoints: [path.join(ROOT, entry)] } : {}),
      outfile: path.join(LIB, "bundles", out),
      bundle: true,
      format: "esm",
      minify: true,
      logLevel: "warning",
      ...options,
    });
  }
}
// `catalogue --help` as the compiled program prints it, which bin/catalogue.js prints without
// loading any module (Node's ES module loader alone is most of the time of `--help`).
writeFileSync(
  path.join(LIB, HELP_FILE),
  execFileSync(process.execPath, [path.join(LIB, "src/cli/main.js"), "--help"]),
);
const program = await import(pathToFileURL(path.join(LIB, "src/program.js")).href);
if (program.CODE_DIGEST_FILE !== CODE_DIGEST_FILE)
  throw new Error(
    `src/program.ts records the code's digest in ${program.CODE_DIGEST_FILE}: update compile.mjs`,
  );
writeFileSync(path.join(LIB, CODE_DIGEST_FILE), `${program.codeDigest()}\n`);
