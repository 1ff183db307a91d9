import { defineCommand } from "../command.ts";
import { OPTIONS, pick } from "../option-table.ts";
import { checkFlags } from "../flags.ts";
import { parsePort, stopOnSignal } from "./serve.ts";

export const devCommand = defineCommand({
  options: {
    content: { ...OPTIONS.content, help: "the content folder to watch (default: content)" },
    out: { ...OPTIONS.out, help: "the output folder (default: dist)" },
    ...pick("port", "host", "no-site", "site", "cache", "timings"),
  },
  more: `
A save that makes the content invalid prints its problems and shows them in the open pages; the
last good build stays served. Stop with Ctrl-C.

Example (each domain at http://DOMAIN.localhost:8080/, its links kept on the preview):
  npx catalogue dev --content content --port 8080`,
  async run(values, _positionals, io) {
    const port = parsePort(values.port);
    await checkFlags(values);
    const say = (line: string) => io.stderr.write(`${line}\n`);
    // Imported on use: the whole pipeline.
    const { startDev } = await import("../../dev/dev.ts");
    const build = {
      contentDir: values.content,
      outDir: values.out,
      site: !values["no-site"],
      cacheDir: values.cache,
      siteDir: values.site,
    };
    const dev = await startDev({
      build,
      port,
      host: values.host,
      say,
      timings: values.timings,
    });
    io.stdout.write(
      `serving ${build.outDir} on ${dev.url}, watching ${build.contentDir} (stop with Ctrl-C)\n`,
    );
    await stopOnSignal(() => dev.close());
    io.stdout.write("stopped\n");
  },
});
