/**
 * Runs one build in its own process and prints its figures as JSON on the last line, so that
 * the benchmark measures the peak memory (maxRSS) of the build alone.
 *   tsx scripts/bench/build-child.ts CONTENT OUT DATE [--site] [--domain HOST]...
 * With BENCH_COMPILED=1 the compiled program (lib/, `npm run compile`) builds, as the installed
 * command does.
 */
import type { build as Build } from "../../src/pipeline/pipeline.ts";
import type { checkUpToDate as CheckUpToDate } from "../../src/pipeline/up-to-date.ts";
import type { withTunedHeap as WithTunedHeap } from "../../src/util/memory.ts";

// What the command sets before it builds (src/cli/main.ts, cli/commands/build.ts): the environment
// and V8's heap are the command's settings, which build() makes none of.
process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= "true";
const compiled = process.env.BENCH_COMPILED === "1";
const load = (module: string) =>
  import(compiled ? `../../lib/src/${module}.js` : `../../src/${module}.ts`) as Promise<unknown>;
const { build } = (await load("pipeline/pipeline")) as { build: typeof Build };
const { checkUpToDate } = (await load("pipeline/up-to-date")) as {
  checkUpToDate: typeof CheckUpToDate;
};
const { withTunedHeap } = (await load("util/memory")) as { withTunedHeap: typeof WithTunedHeap };

const [content, out, date, ...rest] = process.argv.slice(2);
const domains = rest.flatMap((arg, i) => (rest[i - 1] === "--domain" ? [arg] : []));

const started = performance.now();
const options = {
  contentDir: content!,
  outDir: out!,
  date: date!,
  site: rest.includes("--site"),
  domains: domains.length > 0 ? domains : undefined,
};
const checked = await checkUpToDate(options);
const summary = await withTunedHeap(checked.size, options.site, () =>
  build({ ...options, checked }),
);
const seconds = (performance.now() - started) / 1000;
const usage = process.resourceUsage();
const { manifest: _manifest, ...figures } = summary;
// CPU seconds of every thread (user, system): steadier than elapsed time on a noisy machine.
console.log(
  JSON.stringify({
    ...figures,
    seconds,
    maxRssMB: usage.maxRSS / 1024,
    userSeconds: usage.userCPUTime / 1e6,
    systemSeconds: usage.systemCPUTime / 1e6,
  }),
);
