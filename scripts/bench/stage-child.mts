/**
 * One build that prints each stage as it starts, on stderr: seconds since the build started,
 * the monotonic clock in microseconds (to line stages up with a --cpu-prof profile, whose
 * timestamps use the same clock), and the stage. For finding where a rebuild's time goes:
 *   tsx scripts/bench/stage-child.mts CONTENT OUT DATE [--site]
 */
import { build } from "../../src/pipeline/pipeline.ts";
const [content, out, date, ...rest] = process.argv.slice(2);
const t0 = performance.now();
const s = await build({
  contentDir: content!,
  outDir: out!,
  date: date!,
  site: rest.includes("--site"),
  reporter: {
    stage: (n) =>
      console.error(
        `${((performance.now() - t0) / 1000).toFixed(2)} ${process.hrtime.bigint() / 1000n} ${n}`,
      ),
    warning() {},
  },
});
console.error(`${((performance.now() - t0) / 1000).toFixed(2)} done written=${s.written}`);
