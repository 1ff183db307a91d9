import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * Inside node_modules, so that the bundle's imports of packages (exceljs) resolve as the sources'
 * do. The usual place for tools' caches; never published.
 */
const CACHE = path.join(ROOT, "node_modules/.cache/catalogue");

/** What a bundle was made from: each source file (relative to ROOT) with the digest of its bytes. */
interface BundleRecord {
  bundle: string;
  inputs: Record<string, string>;
}

/**
 * The script a worker thread runs for the TypeScript module `entry`.
 *
 * Worker threads do not inherit the main thread's TypeScript loader (tsx). Registering it in a
 * thread costs about a quarter of a second of CPU: a loader thread of its own and a round trip
 * to it for every module. So the thread's modules are bundled with esbuild (the compiler tsx
 * itself runs) into one JavaScript file, kept in node_modules/.cache/catalogue with the list of
 * sources it was made from and their digests; a source that changed makes a new bundle. Where
 * that fails (a read-only install), the thread runs `entry` with `.mjs` for `.ts`, a script that
 * registers tsx and imports the module.
 */
export function workerScript(entry: URL, where: Where = { root: ROOT, cache: CACHE }): URL {
  try {
    return pathToFileURL(bundle(fileURLToPath(entry), where));
  } catch {
    return new URL(entry.href.replace(/\.ts$/, ".mjs"));
  }
}

/**
 * The Node options of a thread that runs a script of workerScript: the process's own, without
 * those that load tsx (`tsx src/cli/main.ts` passes them, and threads inherit them). The bundle
 * needs no loader and the fallback script registers its own, while an inherited loader starts a
 * hooks thread in every thread and routes each of its module loads through it (a tenth to a
 * quarter of a CPU-second per thread).
 */
export function threadExecArgv(execArgv: readonly string[] = process.execArgv): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    const joined = /^--(?:import|require|loader|experimental-loader)=(.*)$/.exec(arg);
    if (joined !== null && isTsx(joined[1]!)) continue;
    if (/^(?:--import|--require|-r|--loader|--experimental-loader)$/.test(arg) && i + 1 < execArgv.length && isTsx(execArgv[i + 1]!)) {
      i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

const isTsx = (specifier: string) => /(^|[\\/])tsx([\\/]|$)/.test(specifier);

/** The sources' folder (the paths of a record are relative to it) and the cache folder. */
export interface Where {
  root: string;
  cache: string;
}

const digestOf = (root: string, file: string) => createHash("sha256").update(readFileSync(path.join(root, file))).digest("hex");

/** Bundles of this process, by entry (their sources are checked once per process). */
const made = new Map<string, string>();

function bundle(entry: string, { root, cache }: Where): string {
  const known = made.get(`${cache}\0${entry}`);
  if (known !== undefined) return known;
  const name = path.basename(entry, ".ts");
  const recordFile = path.join(cache, `${name}.json`);
  let record: BundleRecord | null = null;
  try {
    record = JSON.parse(readFileSync(recordFile, "utf8")) as BundleRecord;
    const current = Object.entries(record.inputs).every(([file, digest]) => digestOf(root, file) === digest);
    if (!current || !existsSync(path.join(cache, record.bundle))) record = null;
  } catch {
    record = null;
  }
  record ??= makeBundle(entry, name, recordFile, { root, cache });
  const file = path.join(cache, record.bundle);
  made.set(`${cache}\0${entry}`, file);
  return file;
}

function makeBundle(entry: string, name: string, recordFile: string, { root, cache }: Where): BundleRecord {
  // Loaded only here: most builds find their bundle made.
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
  const result = esbuild.buildSync({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Packages are imported from node_modules as they are (they resolve from the cache folder).
    packages: "external",
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const inputs = Object.fromEntries(Object.keys(result.metafile.inputs).map((file) => [file, digestOf(root, file)]));
  const record: BundleRecord = { bundle: `${name}-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`, inputs };
  mkdirSync(cache, { recursive: true });
  // Written whole, then renamed: a build running at the same time reads the old files or the new ones.
  const temporary = path.join(cache, `.${name}.${randomUUID()}.tmp`);
  writeFileSync(temporary, code);
  renameSync(temporary, path.join(cache, record.bundle));
  writeFileSync(temporary, JSON.stringify(record));
  renameSync(temporary, recordFile);
  // Older bundles go after a day (not at once: a build started before may still be starting a thread from one).
  for (const old of readdirSync(cache)) {
    const file = path.join(cache, old);
    if (old.startsWith(`${name}-`) && old !== record.bundle && Date.now() - statSync(file).mtimeMs > 86_400_000) rmSync(file, { force: true });
  }
  return record;
}
