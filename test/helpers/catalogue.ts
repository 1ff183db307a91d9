import { mkdtemp, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { build, type BuildOptions, type BuildSummary } from "../../src/pipeline/pipeline.ts";
import { MANIFEST_PATH } from "../../src/output/tree.ts";
import { hashFile } from "../../src/util/hash.ts";
import { generateCatalogue, type GenerateOptions } from "../../scripts/generate.ts";

/** A fresh temporary folder, removed by the returned cleanup. */
export async function tempDir(
  prefix = "catalogue-test-",
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a generated content folder (seeded, so every run gets the same catalogue). */
export async function generatedContent(
  dir: string,
  options: Partial<GenerateOptions> = {},
): Promise<string> {
  const content = path.join(dir, "content");
  await generateCatalogue(content, { works: 300, domains: 2, ...options });
  return content;
}

/** Builds a content folder into `out` with a fixed date and a cache inside the temp folder. */
export function buildFixture(
  contentDir: string,
  outDir: string,
  options: Partial<BuildOptions> = {},
): Promise<BuildSummary> {
  return build({
    contentDir,
    outDir,
    date: "2026-11-20",
    cacheDir: path.join(path.dirname(outDir), ".cache"),
    site: false,
    ...options,
  });
}

/** The bundled sample catalogue. */
export const SAMPLE_CONTENT = path.resolve(import.meta.dirname, "../../content");

/** The repository root, for running the CLI as a user would. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CLI = path.join(ROOT, "bin/catalogue.js");

/**
 * Every file of the build `out` (its manifest excepted) with its size and MD5, read from disk:
 * what tests compare builds by (the manifest has no MD5 for files written with a key).
 */
export async function outputFiles(
  out: string,
): Promise<Record<string, { size: number; md5: string }>> {
  const real = await realpath(out);
  const files: Record<string, { size: number; md5: string }> = {};
  for (const entry of await readdir(real, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(real, path.join(entry.parentPath, entry.name));
    if (entry.isFile() && rel !== MANIFEST_PATH) files[rel] = await hashFile(path.join(real, rel));
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1)));
}
