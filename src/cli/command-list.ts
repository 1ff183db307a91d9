import type { Command } from "./command.ts";

/**
 * A subcommand as `catalogue --help` lists it. Its module (options, help, what it does) is loaded
 * only when the command is named: the main help loads none of them, and a command loads no other's.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** Every subcommand, in the order `catalogue --help` lists them. */
export const commands: CommandEntry[] = [
  {
    name: "init",
    summary: "write a small sample catalogue into DIR/content to start from",
    load: async () => (await import("./commands/init.ts")).initCommand,
  },
  {
    name: "build",
    summary: "validate the content and write the static site (API, exports, HTML, media)",
    load: async () => (await import("./commands/build.ts")).buildCommand,
  },
  {
    name: "validate",
    summary: "check the content folder and report every problem",
    load: async () => (await import("./commands/validate.ts")).validateCommand,
  },
  {
    name: "publish",
    summary: "upload the built output to S3, a folder or an archive, changing only what changed",
    load: async () => (await import("./commands/publish.ts")).publishCommand,
  },
  {
    name: "deploy",
    summary:
      "build, then publish what changed, in one process (the build hands over its file list)",
    load: async () => (await import("./commands/deploy.ts")).deployCommand,
  },
  {
    name: "serve",
    summary: "serve the built output with the API's behaviour (preview and tests)",
    load: async () => (await import("./commands/serve.ts")).serveCommand,
  },
  {
    name: "dev",
    summary: "build, serve, and rebuild on every save in the content folder; open pages reload",
    load: async () => (await import("./commands/dev.ts")).devCommand,
  },
  {
    name: "config",
    summary:
      "print an nginx or Caddy configuration that serves the built output, or write CDN rules or a Cloudflare Worker",
    load: async () => (await import("./commands/config.ts")).configCommand,
  },
];
