import { formatWarning, InputError } from "../errors.ts";

export { formatWarning };

/**
 * `--strict` before a build: the content's warnings are errors, and the build does not start (a
 * build with nothing else to do would not even read the content, and so not warn).
 */
export async function refuseWarnings(
  contentDir: string,
  siteDir?: string,
  site = true,
): Promise<void> {
  const { checkContent } = await import("../content/load.ts");
  const check = await checkContent(contentDir);
  if (site) {
    // What the pages' policy would block of the library's own files.
    const { siteFolderPath: siteFolder, checkSiteFolder } =
      await import("../pipeline/site-folder.ts");
    const own = await checkSiteFolder(
      siteFolder(contentDir, siteDir),
      siteDir !== undefined,
      check.catalogue?.domains ?? [],
    );
    check.problems.push(...own.problems);
    check.warnings.push(...own.warnings);
  }
  if (check.warnings.length > 0) throw new InputError([...check.problems, ...check.warnings]);
}
