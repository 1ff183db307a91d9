import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * Compiles the program into lib/ once before the tests: the tests that start the command
 * (bin/catalogue.js) then run the code they test, not a stale compilation. Incremental: a few
 * seconds when nothing changed.
 */
export default function compile() {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, "../../scripts/compile.mjs")], {
    stdio: "inherit",
  });
}
