import { defineCommand } from "../command.ts";
import { pick } from "../option-table.ts";
import { checkFlags } from "../flags.ts";
import { stageReporter } from "../progress.ts";
import { formatWarning, refuseWarnings } from "../warnings.ts";

export const buildCommand = defineCommand({
  options: pick("content", "out", "date", "domain", "no-site", "site", "cache", "strict"),
  more: `
Example:
  npx catalogue build --content content --out dist --date 2026-12-01`,
  async run(values, _positionals, io) {
    await checkFlags(values);
    if (values.strict) await refuseWarnings(values.content, values.site, !values["no-site"]);
    const reporter = stageReporter(io, (w) => io.stderr.write(`${formatWarning(w)}\n`));
    const options = {
      contentDir: values.content,
      outDir: values.out,
      date: values.date,
      domains: values.domain,
      site: !values["no-site"],
      cacheDir: values.cache,
      siteDir: values.site,
      reporter,
    };
    // Imported on use: `catalogue --help` should not load the pipeline, and a build with nothing
    // to do loads only the check that says so (and hands its answer to build()).
    const started = performance.now();
    const { checkUpToDate } = await import("../../pipeline/up-to-date.ts");
    const { withTunedHeap } = await import("../../util/memory.ts");
    const checked = await checkUpToDate(options);
    const { date, current } = checked;
    // V8's heap is tuned here, for this build's size: a process-wide setting, which build() makes none of.
    const summary =
      current !== null
        ? { ...current, date, seconds: (performance.now() - started) / 1000, skipped: true }
        : await withTunedHeap(checked.size, options.site, async () =>
            (await import("../../pipeline/pipeline.ts")).build({ ...options, checked }),
          );
    reporter.done();
    io.stderr.write(
      `built ${summary.domains.length} domain(s) for ${summary.date} into ${options.outDir}: ` +
        `${summary.files} files, ${summary.written} written, ${summary.unchanged} unchanged, ` +
        `${summary.removed} removed in ${summary.seconds.toFixed(2)} s` +
        (summary.skipped ? " (inputs unchanged since the last build: nothing to do)\n" : "\n"),
    );
  },
});
