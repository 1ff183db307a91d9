import { run } from "./run.ts";

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  interactive: process.stderr.isTTY === true,
  env: process.env,
});
// Long-running commands (serve) resolve only when they are stopped.
process.exitCode = code;
