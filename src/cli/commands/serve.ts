import { UserError } from "../../errors.ts";
import type { Command } from "../command.ts";

export const serveCommand: Command = {
  name: "serve",
  summary: "serve the built output with the API's behaviour (preview and tests)",
  usage: "catalogue serve [--dir DIR] [--port N] [--host ADDR]",
  help: `  --dir DIR            the built output (default: dist); a rebuild is served without restart
  --port N             the port (default: 8080; 0 picks a free one, printed on start)
  --host ADDR          the address to listen on (default: 127.0.0.1)`,
  options: {
    dir: { type: "string", default: "dist" },
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
  },
  async run(values, _positionals, io) {
    const port = parsePort(values.port as string);
    const dir = values.dir as string;
    const { startServer } = await import("../../serve/server.ts");
    const server = await startServer({ dir, port, host: values.host as string, log: (line) => io.stdout.write(`${line}\n`) });
    io.stdout.write(`serving ${dir} on ${server.url} (stop with Ctrl-C)\n`);
    // The command's promise settles when the server is stopped: the CLI then exits with 0.
    await new Promise<void>((stopped) => {
      const stop = () => {
        process.off("SIGINT", stop);
        process.off("SIGTERM", stop);
        void server.close().then(stopped);
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
    });
    io.stdout.write("stopped\n");
  },
};

export function parsePort(text: string): number {
  if (!/^[0-9]{1,5}$/.test(text) || Number(text) > 65535) {
    throw new UserError(`--port: expected a port number between 0 and 65535, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}
