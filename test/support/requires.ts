import { accessSync, constants } from "node:fs";
import path from "node:path";

/**
 * The programs some suites need that npm does not install, and the one rule for them: under CI
 * a missing program fails the run (CI installs them all: .ci/run); on a developer's machine the
 * suites that need it are skipped, with a printed reason.
 */

/** The Debian package of each program, for the message that says what to install. */
const PACKAGES: Record<string, string> = {
  chromium: "chromium",
  nginx: "nginx",
  caddy: "caddy",
  xmllint: "libxml2-utils",
  unzip: "unzip",
  zipinfo: "unzip",
  aws: "awscli",
  rclone: "rclone",
  "yaz-marcdump": "yaz",
  // Perl's MARC modules, found by the program each package installs beside them.
  marclint: "libmarc-lint-perl",
  marcdump: "libmarc-record-perl",
  xml2marc: "libmarc-xml-perl",
};

/** Whether this run is CI's. CI services set CI=true; "", "0" and "false" say it is not. */
export function inCI(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.CI ?? "").trim().toLowerCase();
  return value !== "" && value !== "0" && value !== "false";
}

/** Where an executable is: an absolute path as given, else PATH, then the sbin folders Debian puts servers in; null if nowhere. */
export function findTool(tool: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates = path.isAbsolute(tool)
    ? [tool]
    : [...(env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin", "/sbin"]
        .filter(Boolean)
        .map((dir) => path.join(dir, tool));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here: the next folder.
    }
  }
  return null;
}

/** Thrown when a program a suite needs is missing in CI. */
export class MissingTool extends Error {
  override name = "MissingTool";
}

/**
 * The path of `tool` (a name looked up as findTool does, or an absolute path), for the suites
 * named by `needs` (like "the browser tests"). Missing: under CI a MissingTool is thrown, so the
 * file that asked fails; elsewhere a warning is printed and null returned, for the caller to skip
 * with `describe.runIf(found !== null)`. `howToInstall` replaces the advice to install a Debian
 * package, for a program that comes from elsewhere.
 */
export function requireTool(
  tool: string,
  needs: string,
  env: NodeJS.ProcessEnv = process.env,
  howToInstall?: string,
): string | null {
  const found = findTool(tool, env);
  if (found !== null) return found;
  const name = path.basename(tool);
  const install = howToInstall ?? `install Debian's ${PACKAGES[name] ?? name} (.ci/run does)`;
  if (inCI(env))
    throw new MissingTool(
      `${tool} is missing and CI is set, so ${needs} fail instead of skipping: ${install}`,
    );
  console.warn(
    `\n*** ${tool} is missing: ${needs} are SKIPPED (under CI=true they fail); ${install} ***\n`,
  );
  return null;
}
