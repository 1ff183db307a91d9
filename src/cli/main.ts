import { run } from "./run.ts";

// No top-level await: bin/catalogue.js loads this module with require().
void run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stderr.isTTY === true,
  env: process.env,
}).then((code) => {
  // Long-running commands (serve) resolve only when they are stopped.
  process.exitCode = code;
});
