import path from "node:path";
import { defineCommand } from "../command.ts";
import { OPTIONS, pick } from "../option-table.ts";
import { whenIdle } from "../idle.ts";
import { stageReporter } from "../progress.ts";
import { checkFlags } from "../flags.ts";
import { formatWarning, refuseWarnings } from "../warnings.ts";
import { credentialsHelp, maxDeletes, publishRequest, runPublish, summaryLine } from "./publish.ts";

export const deployCommand = defineCommand({
  options: {
    to: OPTIONS.to,
    content: OPTIONS.content,
    out: {
      ...OPTIONS.out,
      help: "the output folder (default: dist), kept between deploys: a deploy rebuilds and uploads only what changed since",
    },
    date: OPTIONS.date,
    domain: {
      ...OPTIONS.domain,
      help: "build and publish only this domain (repeatable): the others keep their output, and on the target their folders and build.json entries (shards of a network)",
    },
    ...pick("no-site", "site"),
    cache: {
      ...OPTIONS.cache,
      help: "the processed-image cache, and copies of the target's records that spare downloading them (default: .cache/catalogue)",
    },
    endpoint: OPTIONS.endpoint,
    "dry-run": {
      ...OPTIONS["dry-run"],
      help: 'build into --out as "catalogue build" does (the output folder is updated, atomically), then list what publishing would upload and delete; the target is not changed',
    },
    "max-deletes": maxDeletes,
    ...pick("verify", "prune-media", "strict"),
  },
  more: `${credentialsHelp}

Example (the nightly run):
  npx catalogue deploy --to s3://my-bucket/catalogue --strict`,
  async run(values, _positionals, io) {
    const out = values.out;
    // The target is checked before the build: a wrong --to costs nothing.
    const request = await publishRequest(values, out, io);
    await checkFlags(values);
    if (values.strict) await refuseWarnings(values.content, values.site, !values["no-site"]);
    const reporter = stageReporter(io, (w) => io.stderr.write(`${formatWarning(w)}\n`));
    // The target's client loads while the build waits on its threads: the S3 SDK's load is long
    // enough to be worth hiding behind them.
    const { target } = request;
    const stopPreparing =
      "prepare" in target && target.prepare !== undefined
        ? whenIdle(() => target.prepare!())
        : () => {};
    const { build } = await import("../../pipeline/pipeline.ts");
    const { checkUpToDate } = await import("../../pipeline/up-to-date.ts");
    const { withTunedHeap } = await import("../../util/memory.ts");
    // read-inputs.ts's default, which the publish keeps its copies of the target's records under too.
    const cacheDir = values.cache ?? path.resolve(".cache", "catalogue");
    const options = {
      contentDir: values.content,
      outDir: out,
      date: values.date,
      domains: request.domains,
      site: !values["no-site"],
      siteDir: values.site,
      cacheDir,
      reporter,
    };
    // A failed build throws here: nothing is published. V8's heap is tuned here, for the build's
    // size, and restored before the publish (build() makes no process-wide setting).
    const built = await (async () => {
      const checked = await checkUpToDate(options);
      return checked.current !== null
        ? build({ ...options, checked })
        : withTunedHeap(checked.size, options.site, () => build({ ...options, checked }));
    })().finally(stopPreparing);
    reporter.stage("publishing");
    reporter.done();
    // What the build changed, to plan the publish from (publish/changes.ts); without it, a comparison of every file.
    const changes =
      built.manifest !== undefined && built.previousKeys !== undefined
        ? { files: built.manifest, previousKeys: built.previousKeys }
        : undefined;
    const published = await runPublish(
      { ...request, dir: out, manifest: built.manifest, changes, cacheDir },
      io,
      false,
    );
    if (published.dryRun) return;
    io.stderr.write(
      `deployed ${built.date} to ${summaryLine(published)}; ` +
        `built ${built.domains.length} domain(s), ${built.files} files, ${built.written} written in ${built.seconds.toFixed(2)} s` +
        (built.skipped ? " (inputs unchanged)" : "") +
        "\n",
    );
  },
});
