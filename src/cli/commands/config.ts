import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../../errors.ts";
import { defineCommand, usageOf, type CliIO } from "../command.ts";
import { OPTIONS, type Values } from "../option-table.ts";

// Imported on use: `catalogue --help` loads no command's dependencies (build-info loads zod).
const SERVERS = {
  nginx: async () => (await import("../../serve/nginx.ts")).nginxConfig,
  caddy: async () => (await import("../../serve/caddy.ts")).caddyConfig,
} as const;

const configOptions = {
  dir: {
    ...OPTIONS.dir,
    help: "the built output (default: dist); the configuration names DIR itself, so a rebuild is served without a reload",
  },
  listen: OPTIONS.listen,
  domain: OPTIONS["config-domain"],
  out: OPTIONS["config-out"],
  r2: OPTIONS.r2,
  name: OPTIONS.name,
  snippets: OPTIONS.snippets,
};

type ConfigValues = Values<typeof configOptions>;

export const configCommand = defineCommand({
  options: configOptions,
  positionals: {
    "nginx|caddy": "print that server's configuration on stdout",
    netlify:
      "write Netlify-style _headers and _redirects for one domain into FOLDER (the root of the site that publishes that domain's folder)",
    cloudfront:
      "write a CloudFront Function (function.js), its response headers policy (response-headers-policy.json) and key-value-store.json into FOLDER",
    workers:
      "write a Cloudflare Worker into FOLDER: worker.js (the edge function, one ES module) and wrangler.json (routes of every domain and media host; the build folder as static assets, or an R2 bucket with --r2)",
  },
  usage: [
    { words: "nginx|caddy", options: ["dir", "listen"] },
    { words: "nginx", options: ["snippets", "domain", "dir"], required: ["snippets"] },
    { words: "cloudfront", options: ["out", "dir"], required: ["out"] },
    { words: "netlify", options: ["domain", "out", "dir"], required: ["domain", "out"] },
    { words: "workers", options: ["out", "dir", "r2", "name"], required: ["out"] },
  ],
  more: `
Examples:
  npx catalogue config nginx --dir /srv/catalogue/dist > /etc/nginx/conf.d/catalogue.conf
  npx catalogue config workers --out worker --r2 my-bucket/catalogue`,
  async run(values, positionals, io) {
    const [server, ...extra] = positionals;
    if (server === "netlify" && extra.length === 0) return writeNetlify(values, io);
    if (server === "workers" && extra.length === 0) return writeWorkersCommand(values, io);
    if (server === "cloudfront" && extra.length === 0) return writeCloudFrontCommand(values, io);
    if (server === "nginx" && extra.length === 0 && values.snippets !== undefined)
      return writeNginxSnippets({ ...values, snippets: values.snippets }, io);
    if (server === undefined || !Object.hasOwn(SERVERS, server) || extra.length > 0) {
      const { closest } = await import("../../content/suggest.ts");
      const meant =
        server === undefined || extra.length > 0
          ? undefined
          : closest(server, ["nginx", "caddy", "netlify", "workers", "cloudfront"]);
      const got = positionals.length === 0 ? "nothing" : JSON.stringify(positionals.join(" "));
      throw new UserError(
        `expected "nginx", "caddy", "netlify", "workers" or "cloudfront", got ${got}${meant === undefined ? "" : ` (did you mean "${meant}"?)`}; usage: ${usageOf("config", configCommand)}`,
      );
    }
    const [{ configDir, parseListen }, { readBuildInfo }, config] = await Promise.all([
      import("../../serve/listen.ts"),
      import("../../output/build-info.ts"),
      SERVERS[server as keyof typeof SERVERS](),
    ]);
    const listen = parseListen(values.listen);
    const dir = configDir(values.dir);
    const info = await readBuildInfo(dir);
    io.stdout.write(config(info, dir, listen));
  },
});

async function writeNetlify(values: ConfigValues, io: CliIO) {
  const { domain, out } = values;
  if (domain === undefined || out === undefined)
    throw new UserError("config netlify needs --domain HOST and --out FOLDER");
  const [{ configDir }, { readBuildInfo }, { netlifyRules }] = await Promise.all([
    import("../../serve/listen.ts"),
    import("../../output/build-info.ts"),
    import("../../edge/netlify.ts"),
  ]);
  const info = await readBuildInfo(configDir(values.dir));
  if (!info.domains.some((d) => d.domain === domain)) {
    throw new UserError(
      `--domain: no domain ${domain} in the build; its domains are: ${info.domains.map((d) => d.domain).join(", ")}`,
    );
  }
  const rules = netlifyRules(info, domain);
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, "_headers"), rules.headers);
  await writeFile(path.join(out, "_redirects"), rules.redirects);
  io.stderr.write(
    `wrote ${path.join(out, "_headers")} and ${path.join(out, "_redirects")} for ${domain}\n`,
  );
}

async function writeWorkersCommand(values: ConfigValues, io: CliIO) {
  const out = values.out;
  if (out === undefined)
    throw new UserError("config workers needs --out FOLDER (where worker.js and wrangler.json go)");
  const { writeWorkerFiles } = await import("../../edge/worker-files.ts");
  const written = await writeWorkerFiles({
    dir: values.dir,
    out,
    r2: values.r2,
    name: values.name,
  });
  for (const warning of written.warnings) io.stderr.write(`warning: ${warning}\n`);
  io.stderr.write(`wrote ${written.files.join(" and ")}\n`);
}

async function writeNginxSnippets(values: ConfigValues & { snippets: string }, io: CliIO) {
  const out = values.snippets;
  const [{ configDir }, { readBuildInfo }, { nginxSnippets }, { hostTable }] = await Promise.all([
    import("../../serve/listen.ts"),
    import("../../output/build-info.ts"),
    import("../../serve/nginx.ts"),
    import("../../serve/routes.ts"),
  ]);
  const dir = configDir(values.dir);
  const info = await readBuildInfo(dir);
  const hosts = hostTable(info).map((h) => h.host);
  const host = values.domain ?? hosts[0]!;
  if (!hosts.includes(host))
    throw new UserError(
      `--domain: no host ${host} in the build; its hosts are: ${hosts.join(", ")}`,
    );
  const snippets = nginxSnippets(info, dir, host);
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, "http.conf"), snippets.http);
  await writeFile(path.join(out, "server.conf"), snippets.server);
  io.stderr.write(
    `wrote ${path.join(out, "http.conf")} and ${path.join(out, "server.conf")} for ${host}\n`,
  );
}

async function writeCloudFrontCommand(values: ConfigValues, io: CliIO) {
  const out = values.out;
  if (out === undefined)
    throw new UserError(
      "config cloudfront needs --out FOLDER (where function.js and response-headers-policy.json go)",
    );
  const { writeCloudFrontFiles } = await import("../../edge/cloudfront-files.ts");
  const written = await writeCloudFrontFiles({ dir: values.dir, out });
  io.stderr.write(`wrote ${written.join(", ")}\n`);
}
