import type { Reporter } from "../util/reporter.ts";
import type { Problem } from "../errors.ts";
import type { CliIO } from "./command.ts";

/** Shows the current stage and elapsed time on a terminal; prints nothing when not a terminal. */
export function stageReporter(
  io: CliIO,
  warning: (problem: Problem) => void,
): Reporter & { done(): void } {
  const started = performance.now();
  let shown = false;
  return {
    stage(name) {
      if (!io.interactive) return;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      io.stderr.write(`\r\x1b[K[${seconds} s] ${name}…`);
      shown = true;
    },
    warning,
    done() {
      if (shown) io.stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}
