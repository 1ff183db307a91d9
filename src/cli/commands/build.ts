import type { Command } from "../command.ts";
import { checkFlags } from "../flags.ts";
import { stageReporter } from "../progress.ts";
import { formatWarning, refuseWarnings, strictHelp, strictOption } from "../warnings.ts";

export const buildCommand: Command = {
  usage:
    "catalogue build [--content DIR] [--out DIR] [--date YYYY-MM-DD] [--domain HOST]... [--no-site] [--site DIR] [--cache DIR] [--strict]",
  help: `  --content DIR        the content folder with the four CSV files (default: content)
  --out DIR            the output folder (default: dist); replaced atomically
  --date YYYY-MM-DD    the build date (default: SOURCE_DATE_EPOCH, else today in UTC)
  --domain HOST        build only this domain (repeatable); the others keep their output
  --no-site            API, exports and server files only: no HTML catalogue
  --site DIR           the library's own site folder (default: site beside the content folder)
  --cache DIR          the processed-image cache (default: .cache/catalogue)
${strictHelp}

Example:
  npx catalogue build --content content --out dist --date 2026-12-01`,
  options: {
    content: { type: "string", default: "content" },
    out: { type: "string", default: "dist" },
    date: { type: "string" },
    domain: { type: "string", multiple: true },
    "no-site": { type: "boolean", default: false },
    cache: { type: "string" },
    site: { type: "string" },
    ...strictOption,
  },
  async run(values, _positionals, io) {
    await checkFlags(values);
    if (values.strict)
      await refuseWarnings(
        values.content as string,
        values.site as string | undefined,
        !values["no-site"],
      );
    const reporter = stageReporter(io, (w) => io.stderr.write(`${formatWarning(w)}\n`));
    const options = {
      contentDir: values.content as string,
      outDir: values.out as string,
      date: values.date as string | undefined,
      domains: values.domain as string[] | undefined,
      site: !values["no-site"],
      cacheDir: values.cache as string | undefined,
      siteDir: values.site as string | undefined,
      reporter,
    };
    // Imported on use: `catalogue --help` should not load the pipeline, and a build with nothing
    // to do loads only the check that says so (and hands its answer to build()).
    const started = performance.now();
    const { checkUpToDate } = await import("../../pipeline/up-to-date.ts");
    const checked = await checkUpToDate(options);
    const { date, current } = checked;
    const summary =
      current !== null
        ? { ...current, date, seconds: (performance.now() - started) / 1000, skipped: true }
        : await (await import("../../pipeline/pipeline.ts")).build({ ...options, checked });
    reporter.done();
    io.stderr.write(
      `built ${summary.domains.length} domain(s) for ${summary.date} into ${options.outDir}: ` +
        `${summary.files} files, ${summary.written} written, ${summary.unchanged} unchanged, ` +
        `${summary.removed} removed in ${summary.seconds.toFixed(2)} s` +
        (summary.skipped ? " (inputs unchanged since the last build: nothing to do)\n" : "\n"),
    );
  },
};
