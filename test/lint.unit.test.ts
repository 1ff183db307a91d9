import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import js from "@eslint/js";
import { ESLint, type Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

/**
 * The lint configuration (eslint.config.js) against the base it starts from: the rules that matter
 * in this asynchronous code stay errors in src/, and no rule of the base is off without its
 * reason in SWITCHED_OFF. Every eslint-disable comment in the code says why.
 */

const ROOT = path.resolve(import.meta.dirname, "..");

/** One file of each kind the configuration treats apart. */
const SAMPLES = [
  "src/cli/run.ts",
  "test/docs.unit.test.ts",
  "scripts/bench.ts",
  "scripts/compile.mjs",
  "bin/catalogue.js",
  "test/publish/aws-loopback.cjs",
  "src/site/assets/browse.js",
];

/** What must stay an error in the program's code. */
const KEPT_IN_SRC = [
  "@typescript-eslint/no-floating-promises",
  "@typescript-eslint/no-misused-promises",
  "@typescript-eslint/no-unused-vars",
  "@typescript-eslint/no-unnecessary-type-assertion",
  "@typescript-eslint/no-unsafe-argument",
  "@typescript-eslint/no-unsafe-assignment",
  "@typescript-eslint/no-unsafe-call",
  "@typescript-eslint/no-unsafe-member-access",
  "@typescript-eslint/no-unsafe-return",
  "@typescript-eslint/await-thenable",
];

type Severity = 0 | 1 | 2;

function severity(entry: Linter.RuleEntry | undefined): Severity {
  const level = Array.isArray(entry) ? entry[0] : entry;
  if (level === undefined || level === "off" || level === 0) return 0;
  return level === "warn" || level === 1 ? 1 : 2;
}

async function rulesOf(eslint: ESLint, file: string): Promise<Map<string, Severity>> {
  const config = (await eslint.calculateConfigForFile(file)) as Linter.Config;
  return new Map(
    Object.entries(config.rules ?? {}).map(([rule, entry]) => [rule, severity(entry)]),
  );
}

/** The project's configuration, and the base alone: the presets it names, nothing switched off. */
const ours = new ESLint({ cwd: ROOT });
const base = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    js.configs.recommended,
    ...tseslint.configs.recommendedTypeChecked,
    { files: ["**/*.js", "**/*.mjs", "**/*.cjs"], ...tseslint.configs.disableTypeChecked },
  ] as Linter.Config[],
});

const { SWITCHED_OFF } = (await import(path.join(ROOT, "eslint.config.js"))) as {
  SWITCHED_OFF: Record<string, Record<string, string>>;
};
const reasons = new Map(Object.values(SWITCHED_OFF).flatMap((rules) => Object.entries(rules)));

describe("the lint configuration", () => {
  it("keeps the promise, unused-code and unsafe-any rules errors in src/", async () => {
    const rules = await rulesOf(ours, "src/cli/run.ts");
    expect(KEPT_IN_SRC.filter((rule) => rules.get(rule) !== 2)).toEqual([]);
  });

  it("switches off no rule of the base without its reason in SWITCHED_OFF", async () => {
    const unexplained: string[] = [];
    const used = new Set<string>();
    for (const file of SAMPLES) {
      const [mine, theirs] = await Promise.all([rulesOf(ours, file), rulesOf(base, file)]);
      for (const [rule, level] of theirs) {
        if (level === 0 || (mine.get(rule) ?? 0) !== 0) continue;
        if (reasons.has(rule)) used.add(rule);
        else unexplained.push(`${rule} in ${file}`);
      }
    }
    expect(unexplained).toEqual([]);
    // A reason for a rule that is on everywhere is stale.
    expect([...reasons.keys()].filter((rule) => !used.has(rule))).toEqual([]);
    // A reason is a sentence, not a placeholder.
    for (const [rule, why] of reasons) expect(why.split(/\s+/).length, rule).toBeGreaterThan(8);
  });

  it("runs in `npm test`, before the tests", async () => {
    const { scripts } = JSON.parse(await readFile(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.lint).toMatch(/prettier --check .*eslint/);
    const test = scripts.test!;
    expect(test.indexOf("npm run lint")).toBeGreaterThanOrEqual(0);
    expect(test.indexOf("npm run lint")).toBeLessThan(test.indexOf("vitest run"));
  });
});

describe("eslint-disable comments", () => {
  it("each say why, after `--`", async () => {
    const bare: string[] = [];
    for (const folder of ["src", "test", "scripts", "bin"]) {
      const entries = await readdir(path.join(ROOT, folder), {
        recursive: true,
        withFileTypes: true,
      });
      for (const entry of entries) {
        if (!entry.isFile() || !/\.(ts|mts|js|mjs|cjs)$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const lines = (await readFile(file, "utf8")).split("\n");
        lines.forEach((line, i) => {
          const directive = /(?:\/\/|\/\*)\s*eslint-disable(?:-next-line|-line)?\b(.*)/.exec(line);
          if (directive !== null && !/\s--\s+\S+(\s+\S+){2,}/.test(directive[1]!))
            bare.push(`${path.relative(ROOT, file)}:${i + 1}`);
        });
      }
    }
    expect(bare).toEqual([]);
  });
});
