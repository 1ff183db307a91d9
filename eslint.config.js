// The lint rules of the project (`npm run lint`, part of `npm test`). The base is ESLint's and
// typescript-eslint's recommended rules with type information: floating and misused promises,
// unused code, unnecessary assertions and the `no-unsafe-*` family, which these asynchronous
// modules most need. A rule of the base is switched off only in SWITCHED_OFF, with its reason;
// test/lint.unit.test.ts fails on any other rule found off.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

const TESTS_READ_ANY =
  "The tests read what the program wrote (JSON, JSON-LD, headers, a browser's answers) as " +
  "`any`, explicitly or as the parser gives it, and assert its shape: a wrong member or call " +
  "fails the test that makes it, which is what these rules stand in for in src/ and scripts/; " +
  "a declared type would only restate the expectation beside it.";

/** The rules of the base switched off, where, and why. */
export const SWITCHED_OFF = {
  everywhere: {
    "@typescript-eslint/require-await":
      "An async function without await is how a function keeps its Promise signature (an " +
      "interface's method, a callback a caller awaits) and turns a throw into a rejection; " +
      "dropping `async` to please the rule would make those throws synchronous.",
  },
  tests: {
    "@typescript-eslint/no-explicit-any": TESTS_READ_ANY,
    "@typescript-eslint/no-unsafe-argument": TESTS_READ_ANY,
    "@typescript-eslint/no-unsafe-assignment": TESTS_READ_ANY,
    "@typescript-eslint/no-unsafe-call": TESTS_READ_ANY,
    "@typescript-eslint/no-unsafe-member-access": TESTS_READ_ANY,
    "@typescript-eslint/no-unsafe-return": TESTS_READ_ANY,
  },
  commonjs: {
    "@typescript-eslint/no-require-imports":
      "CommonJS files (the command's entry, the tests' preloads) load modules with require(), " +
      "as Node's CommonJS loader expects.",
  },
};

const off = (rules) => Object.fromEntries(Object.keys(rules).map((rule) => [rule, "off"]));

export default defineConfig(
  globalIgnores([
    "lib/",
    "dist",
    ".dist.versions/",
    ".cache/",
    "bench-out/",
    "test-results/",
    "scratch/",
    "content/",
    "test/fixtures/",
  ]),
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is checked with the tsconfig.json that includes it; the JavaScript files,
        // which none includes, with the default project.
        projectService: { allowDefaultProject: ["*.js", "bin/*.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      ...off(SWITCHED_OFF.everywhere),
      "@typescript-eslint/no-unused-vars": [
        "error",
        // A leading underscore marks what a signature or a destructuring must name but not use.
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          caughtErrors: "none",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  { files: ["test/**"], rules: off(SWITCHED_OFF.tests) },
  {
    // Plain JavaScript: Node's scripts and CommonJS files, and the site's browser script. No
    // types to check them with: the type-aware rules do not apply (typescript-eslint's own set).
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  { files: ["**/*.cjs", "bin/**/*.js"], rules: off(SWITCHED_OFF.commonjs) },
  { files: ["src/site/assets/**/*.js"], languageOptions: { globals: globals.browser } },
);
