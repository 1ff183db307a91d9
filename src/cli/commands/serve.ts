import { UserError } from "../../errors.ts";
import type { Command } from "../command.ts";

export const serveCommand: Command = {
  usage: "catalogue serve [--dir DIR] [--port N] [--host ADDR]",
  help: `  --dir DIR            the built output (default: dist); a rebuild is served without restart
  --port N             the port (default: 8080; 0 picks a free one, printed on start)
  --host ADDR          the address to listen on (default: 127.0.0.1)

Example (then curl -H 'Host: library-south.example' http://127.0.0.1:8080/ for another domain):
  npx catalogue serve --dir dist --port 8080`,
  options: {
    dir: { type: "string", default: "dist" },
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
  },
  async run(values, _positionals, io) {
    const port = parsePort(values.port as string);
    const dir = values.dir as string;
    const { startServer } = await import("../../serve/server.ts");
    const server = await startServer({
      dir,
      port,
      host: values.host as string,
      log: (line) => io.stdout.write(`${line}\n`),
    });
    io.stdout.write(`serving ${dir} on ${server.url} (stop with Ctrl-C)\n`);
    await stopOnSignal(() => server.close());
    io.stdout.write("stopped\n");
  },
};

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
