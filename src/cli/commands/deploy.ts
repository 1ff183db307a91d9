import path from "node:path";
import type { Command } from "../command.ts";
import { whenIdle } from "../idle.ts";
import { stageReporter } from "../progress.ts";
import { checkFlags } from "../flags.ts";
import { formatWarning, refuseWarnings, strictHelp, strictOption } from "../warnings.ts";
import {
  credentialsHelp,
  guardHelp,
  publishOptions,
  publishRequest,
  runPublish,
  summaryLine,
} from "./publish.ts";

export const deployCommand: Command = {
  usage:
    "catalogue deploy --to TARGET [--content DIR] [--out DIR] [--date YYYY-MM-DD] [--domain HOST]... [--no-site] [--site DIR] [--cache DIR] [--endpoint URL] [--dry-run] [--max-deletes N] [--verify] [--prune-media] [--strict]",
  help: `  --to TARGET          s3://bucket/prefix, a folder, or a .zip / .tar.gz file (required)
  --content DIR        the content folder with the four CSV files (default: content)
  --out DIR            the output folder (default: dist), kept between deploys: a deploy rebuilds
                       and uploads only what changed since
  --date YYYY-MM-DD    the build date (default: SOURCE_DATE_EPOCH, else today in UTC)
  --domain HOST        build and publish only this domain (repeatable): the others keep their output,
                       and on the target their folders and build.json entries (shards of a network)
  --no-site            API, exports and server files only: no HTML catalogue
  --site DIR           the library's own site folder (default: site beside the content folder)
  --cache DIR          the processed-image cache, and copies of the target's records that spare
                       downloading them (default: .cache/catalogue)
  --endpoint URL       an S3-compatible store (path-style addressing), e.g. http://127.0.0.1:9000
  --dry-run            build into --out as "catalogue build" does (the output folder is updated,
                       atomically), then list what publishing would upload and delete; the target
                       is not changed
${guardHelp}
${strictHelp}
${credentialsHelp}

Example (the nightly run):
  npx catalogue deploy --to s3://my-bucket/catalogue --strict`,
  options: {
    ...publishOptions,
    content: { type: "string", default: "content" },
    out: { type: "string", default: "dist" },
    date: { type: "string" },
    "no-site": { type: "boolean", default: false },
    cache: { type: "string" },
    site: { type: "string" },
    ...strictOption,
  },
  async run(values, _positionals, io) {
    const out = values.out as string;
    // The target is checked before the build: a wrong --to costs nothing.
    const request = await publishRequest(values, out, io);
    await checkFlags(values);
    if (values.strict)
      await refuseWarnings(
        values.content as string,
        values.site as string | undefined,
        !values["no-site"],
      );
    const reporter = stageReporter(io, (w) => io.stderr.write(`${formatWarning(w)}\n`));
    // The target's client (S3: a third of a second to load) loads while the build waits on its threads.
    const { target } = request;
    const stopPreparing =
      "prepare" in target && target.prepare !== undefined
        ? whenIdle(() => target.prepare!())
        : () => {};
    const { build } = await import("../../pipeline/pipeline.ts");
    // pipeline.ts's default, which the publish keeps its copies of the target's records under too.
    const cacheDir = (values.cache as string | undefined) ?? path.resolve(".cache", "catalogue");
    // A failed build throws here: nothing is published.
    const built = await build({
      contentDir: values.content as string,
      outDir: out,
      date: values.date as string | undefined,
      domains: request.domains,
      site: !values["no-site"],
      siteDir: values.site as string | undefined,
      cacheDir,
      reporter,
    }).finally(stopPreparing);
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
};
