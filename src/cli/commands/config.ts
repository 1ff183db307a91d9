import { UserError } from "../../errors.ts";
import { readBuildInfo } from "../../output/build-info.ts";
import { caddyConfig } from "../../serve/caddy.ts";
import { configDir, parseListen } from "../../serve/listen.ts";
import { nginxConfig } from "../../serve/nginx.ts";
import type { Command } from "../command.ts";

const SERVERS = { nginx: nginxConfig, caddy: caddyConfig } as const;

export const configCommand: Command = {
  name: "config",
  summary: "print an nginx or Caddy configuration that serves the built output",
  usage: "catalogue config nginx|caddy [--dir DIR] [--listen ADDR:PORT]",
  help: `  nginx|caddy          which server to configure
  --dir DIR            the built output (default: dist); the configuration names DIR itself,
                       so a rebuild is served without a reload
  --listen ADDR:PORT   the address and port to listen on (default: 127.0.0.1:8080)`,
  options: {
    dir: { type: "string", default: "dist" },
    listen: { type: "string", default: "127.0.0.1:8080" },
  },
  positionals: true,
  async run(values, positionals, io) {
    const [server, ...extra] = positionals;
    if (server === undefined || !Object.hasOwn(SERVERS, server) || extra.length > 0) {
      throw new UserError(`expected "nginx" or "caddy", got ${positionals.length === 0 ? "nothing" : JSON.stringify(positionals.join(" "))}; usage: ${this.usage}`);
    }
    const listen = parseListen(values.listen as string);
    const dir = configDir(values.dir as string);
    const info = await readBuildInfo(dir);
    io.stdout.write(SERVERS[server as keyof typeof SERVERS](info, dir, listen));
  },
};
