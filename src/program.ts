import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Where the running program's code lies. The same modules run in two forms: the TypeScript
 * sources (tests, `npm run dev` in a clone, through tsx or vitest) and the JavaScript that
 * scripts/compile.mjs writes into lib/ (the command and the package). lib/ mirrors the sources'
 * tree (lib/src/…, lib/.eleventy.js), so a path relative to CODE_ROOT names the same module in
 * both forms once its extension is the running one.
 */
export const COMPILED = import.meta.url.endsWith(".js");
/** The repository (sources) or its lib/ folder (compiled): the folder holding src/ and .eleventy.*. */
export const CODE_ROOT = path.resolve(import.meta.dirname, "..");
/** The package's own folder (with package.json and node_modules, or beside hoisted dependencies). */
export const PACKAGE_ROOT = COMPILED ? path.dirname(CODE_ROOT) : CODE_ROOT;

/** `rel` (a source path such as "src/site/eleventy.ts") as the running program names it. */
export const codePath = (rel: string): string => (COMPILED ? rel.replace(/\.ts$/, ".js") : rel);

/**
 * The package.json of the dependency `name` as Node finds it from this package: in its own
 * node_modules, else in those of the folders above (an install hoists dependencies beside it).
 * Read directly rather than through `require.resolve`, which the `exports` of some packages forbid.
 */
export function dependencyManifest(
  name: string,
  from = PACKAGE_ROOT,
): { dir: string; version: string } | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    try {
      const { version } = JSON.parse(
        readFileSync(path.join(candidate, "package.json"), "utf8"),
      ) as { version: string };
      return { dir: candidate, version };
    } catch {
      // Not here: one folder up, as Node's resolution goes.
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** The version of a dependency the program cannot run without (a bug, exit 2, when it is not installed). */
export function dependencyVersion(name: string): string {
  const found = dependencyManifest(name);
  if (found === null)
    throw new Error(`${name} is not installed where Node looks for it from ${PACKAGE_ROOT}`);
  return found.version;
}

/**
 * A bundle that scripts/compile.mjs made (its BUNDLES list, written under lib/bundles/) for the
 * compiled program to ship as it is; null when running from the sources, which bundle at run time.
 */
export function prebuiltBundle(file: string): string | null {
  return COMPILED ? path.join(CODE_ROOT, "bundles", file) : null;
}

let program: Promise<string> | undefined;

/**
 * A digest of what the program is: every file of its running code (the sources, or lib/ once
 * compiled) and the versions of the dependencies it runs with, each found where Node finds it,
 * with npm's record of the whole installed tree (node_modules/.package-lock.json) beside them.
 * That record is there in a clone after `npm ci` and in a project that installed the package; a
 * lock file of the repository is not, and the versions then still key the build. An upgrade of
 * anything the program runs makes every key new.
 */
export function programDigest(): Promise<string> {
  // Read synchronously, as the content's fingerprint is (src/pipeline/fingerprint.ts): a few small files.
  program ??= (async () => {
    const hash = createHash("sha256");
    hash.update(recordedCodeDigest() ?? codeDigest());
    // The interface texts are read at run time (src/web/i18n.ts): a corrected one is a new program.
    for (const name of readdirSync(path.join(PACKAGE_ROOT, "i18n")).sort())
      hash.update(`i18n/${name}\0`).update(readFileSync(path.join(PACKAGE_ROOT, "i18n", name)));
    const { dependencies } = JSON.parse(
      readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8"),
    ) as { dependencies: Record<string, string> };
    const trees = new Set<string>();
    for (const name of Object.keys(dependencies).sort()) {
      const found = dependencyManifest(name);
      hash.update(`${name}@${found?.version ?? "missing"}\0`);
      if (found !== null)
        trees.add(
          path.join(
            found.dir.slice(0, found.dir.lastIndexOf(`${path.sep}node_modules${path.sep}`)),
            "node_modules",
            ".package-lock.json",
          ),
        );
    }
    for (const tree of [...trees].sort()) hash.update(readIfThere(tree));
    hash.update(`node ${process.version}`);
    return hash.digest("hex");
  })();
  return program;
}

/**
 * Where scripts/compile.mjs records the compiled code's digest (codeDigest of lib/), beside lib/src:
 * hashing every compiled module at every start was a large part of a no-op build.
 */
export const CODE_DIGEST_FILE = "code-digest";

/** A digest of every file of the running code (the Eleventy configuration and everything under src/, by path and bytes). */
export function codeDigest(): string {
  const hash = createHash("sha256");
  for (const file of codeFiles())
    hash.update(`${file}\0`).update(readFileSync(path.join(CODE_ROOT, file)));
  return hash.digest("hex");
}

/**
 * The compiled code's digest as compile.mjs recorded it, or null: from the sources, which change
 * between runs (tests, `npm run dev`) and are hashed each time, and in a lib/ compiled by other means.
 */
function recordedCodeDigest(): string | null {
  if (!COMPILED) return null;
  const recorded = readIfThere(path.join(CODE_ROOT, CODE_DIGEST_FILE)).toString("utf8").trim();
  return /^[0-9a-f]{64}$/.test(recorded) ? recorded : null;
}

/** The files of the running code, relative to CODE_ROOT, sorted: the Eleventy configuration and everything under src/. */
function codeFiles(): string[] {
  const entries = readdirSync(path.join(CODE_ROOT, "src"), {
    recursive: true,
    withFileTypes: true,
  });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) =>
      path.relative(CODE_ROOT, path.join(e.parentPath, e.name)).split(path.sep).join("/"),
    );
  return [codePath(".eleventy.ts"), ...files].sort();
}

/** The package's version, for `catalogue --version`. */
export function packageVersion(): string {
  return (
    JSON.parse(readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }
  ).version;
}

function readIfThere(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
}
