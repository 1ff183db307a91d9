import { run } from "./run.ts";

// Eleventy registers a module resolution hook (for its --watch mode, which no command uses: dev
// has its own watcher) unless told not to: every import after it, in a build and in the
// publisher of a deploy, would then wait on Node's hooks thread. Set before any command loads
// Eleventy (run.ts loads the commands lazily); Eleventy reads it when its loader loads.
process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= "true";

// No top-level await: bin/catalogue.js loads this module with require().
void run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stderr.isTTY === true,
  env: process.env,
}).then((code) => {
  // Long-running commands (serve) resolve only when they are stopped.
  process.exitCode = code;
  // Then exit as soon as nothing is left to do, without Node's teardown of the environment and
  // its heap (a pause after a deploy's last line). beforeExit fires only once no work is
  // pending (no timer, request, write or worker keeps the loop alive): nothing is cut short.
  process.once("beforeExit", () => process.exit());
});
