/**
 * Runs one build in its own process and prints its figures as JSON on the last line, so that
 * the benchmark measures the peak memory (maxRSS) of the build alone.
 *   tsx scripts/bench/build-child.ts CONTENT OUT DATE [--site] [--domain HOST]...
 */
import { build } from "../../src/build.ts";

const [content, out, date, ...rest] = process.argv.slice(2);
const domains = rest.flatMap((arg, i) => (rest[i - 1] === "--domain" ? [arg] : []));
const started = performance.now();
const summary = await build({
  contentDir: content!,
  outDir: out!,
  date: date!,
  site: rest.includes("--site"),
  domains: domains.length > 0 ? domains : undefined,
});
const seconds = (performance.now() - started) / 1000;
const usage = process.resourceUsage();
// CPU seconds of every thread (user, system): steadier than elapsed time on a noisy machine.
console.log(JSON.stringify({ ...summary, seconds, maxRssMB: usage.maxRSS / 1024, userSeconds: usage.userCPUTime / 1e6, systemSeconds: usage.systemCPUTime / 1e6 }));
