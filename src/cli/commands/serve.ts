import { UserError } from "../../errors.ts";
import { defineCommand } from "../command.ts";
import { OPTIONS, pick } from "../option-table.ts";

export const serveCommand = defineCommand({
  options: {
    dir: {
      ...OPTIONS.dir,
      help: "the built output (default: dist); a rebuild is served without restart",
    },
    ...pick("port", "host"),
  },
  more: `
Each domain answers at http://DOMAIN.localhost:PORT/ (printed on start; browsers resolve
.localhost to this machine), and to its own name in the Host header; an unknown host gets
the first domain.

Example (then http://library-south.example.localhost:8080/ in a browser, or
curl -H 'Host: library-south.example' http://127.0.0.1:8080/):
  npx catalogue serve --dir dist --port 8080`,
  async run(values, _positionals, io) {
    const port = parsePort(values.port);
    const dir = values.dir;
    const { startServer } = await import("../../serve/server.ts");
    const server = await startServer({
      dir,
      port,
      host: values.host,
      log: (line) => io.stdout.write(`${line}\n`),
    });
    io.stdout.write(`serving ${dir} on ${server.url} (stop with Ctrl-C)\n`);
    // Each domain at an address of its own, which a browser on this machine resolves to loopback.
    const addresses = await server.addresses();
    const width = Math.max(...addresses.map((a) => a.domain.length));
    for (const { domain, url } of addresses) io.stdout.write(`  ${domain.padEnd(width)}  ${url}\n`);
    await stopOnSignal(() => server.close());
    io.stdout.write("stopped\n");
  },
});

/**
 * Settles once Ctrl-C (SIGINT) or SIGTERM has come and `stop` has finished: a long-running
 * command's promise settles then, and the CLI exits with 0.
 */
export function stopOnSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((stopped) => {
    const onSignal = () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      void stop().then(stopped);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

export function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UserError(
      `--port: expected a port number between 0 and 65535, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}
