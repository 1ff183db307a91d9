import type { Command } from "../command.ts";
import { checkFlags } from "../flags.ts";
import { parsePort, stopOnSignal } from "./serve.ts";

export const devCommand: Command = {
  usage:
    "catalogue dev [--content DIR] [--out DIR] [--port N] [--host ADDR] [--no-site] [--site DIR] [--cache DIR] [--timings]",
  help: `  --content DIR        the content folder to watch (default: content)
  --out DIR            the output folder (default: dist)
  --port N             the port (default: 8080; 0 picks a free one, printed on start)
  --host ADDR          the address to listen on (default: 127.0.0.1)
  --no-site            API, exports and server files only: no HTML catalogue
  --site DIR           the library's own site folder (default: site beside the content folder)
  --cache DIR          the processed-image cache (default: .cache/catalogue)
  --timings            after each build, print when each of its stages started (seconds)
                       A save that makes the content invalid prints its problems and shows them
                       in the open pages; the last good build stays served. Stop with Ctrl-C.

Example (each domain at http://DOMAIN.localhost:8080/, its links kept on the preview):
  npx catalogue dev --content content --port 8080`,
  options: {
    content: { type: "string", default: "content" },
    out: { type: "string", default: "dist" },
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
    "no-site": { type: "boolean", default: false },
    cache: { type: "string" },
    site: { type: "string" },
    timings: { type: "boolean", default: false },
  },
  async run(values, _positionals, io) {
    const port = parsePort(values.port as string);
    await checkFlags(values);
    const say = (line: string) => io.stderr.write(`${line}\n`);
    // Imported on use: the whole pipeline.
    const { startDev } = await import("../../dev/dev.ts");
    const build = {
      contentDir: values.content as string,
      outDir: values.out as string,
      site: !values["no-site"],
      cacheDir: values.cache as string | undefined,
      siteDir: values.site as string | undefined,
    };
    const dev = await startDev({
      build,
      port,
      host: values.host as string,
      say,
      timings: values.timings as boolean,
    });
    io.stdout.write(
      `serving ${build.outDir} on ${dev.url}, watching ${build.contentDir} (stop with Ctrl-C)\n`,
    );
    await stopOnSignal(() => dev.close());
    io.stdout.write("stopped\n");
  },
};
