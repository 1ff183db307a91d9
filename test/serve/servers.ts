import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { caddyConfig } from "../../src/serve/caddy.ts";
import { nginxConfig, nginxSnippets } from "../../src/serve/nginx.ts";
import { hostTable } from "../../src/serve/routes.ts";
import { startServer } from "../../src/serve/server.ts";
import type { Fixture } from "./fixture.ts";
import { requireTool } from "../support/requires.ts";

/** A server under test, listening on 127.0.0.1:port. */
export interface Running {
  port: number;
  /**
   * What a new build takes before this server answers from it (a Worker's redeploy, an upload to
   * its bucket); absent for servers that read the build folder as it is.
   */
  deploy?(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The edge function (src/edge/worker.ts) runs in Node behind a small HTTP adapter playing the
 * CDN ("edge"), and as the Worker of `catalogue config workers` in workerd, its files in static
 * assets ("workerd-assets") or in an R2 bucket filled as publish fills one ("workerd-r2"). The
 * files of `catalogue config cloudfront` run as CloudFront would, over s3rver filled by publish
 * ("cloudfront", test/cloudfront/harness.ts).
 */
export type ServerName =
  | "serve"
  | "nginx"
  | "caddy"
  | "edge"
  | "workerd-assets"
  | "workerd-r2"
  | "cloudfront"
  | "nginx-snippets";

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = net.createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => done(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    const open = await new Promise<boolean>((done) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.destroy();
        done(true);
      });
      socket.once("error", () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not listen on ${port} within 20 s:\n${output()}`);
}

function spawnServer(
  binary: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
): Promise<Running> {
  const child = spawn(binary, args, { env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-20_000)));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
    });
  return waitForPort(port, child, () => stderr).then(
    () => ({ port, stop }),
    async (error) => {
      await stop();
      throw error;
    },
  );
}

export async function startNginx(binary: string, fixture: Fixture): Promise<Running> {
  const port = await freePort();
  const prefix = path.join(fixture.dir, "nginx");
  await mkdir(prefix, { recursive: true });
  const conf = path.join(prefix, "nginx.conf");
  await writeFile(conf, nginxConfig(fixture.info, fixture.dist, { address: "127.0.0.1", port }));
  const args = [
    "-p",
    prefix,
    "-c",
    conf,
    "-g",
    `daemon off; pid ${path.join(prefix, "nginx.pid")};`,
  ];
  return spawnServer(binary, args, process.env, port);
}

/**
 * `config nginx --snippets` as a library would use them: a minimal nginx.conf written by hand
 * for an existing server, including http.conf in its http block and, in a server block of its
 * own per host, that host's server.conf.
 */
export async function startNginxSnippets(binary: string, fixture: Fixture): Promise<Running> {
  const port = await freePort();
  const prefix = path.join(fixture.dir, "nginx-snippets");
  await mkdir(prefix, { recursive: true });
  const blocks: string[] = [];
  for (const [index, { host }] of hostTable(fixture.info).entries()) {
    const snippets = nginxSnippets(fixture.info, fixture.dist, host);
    await writeFile(path.join(prefix, "http.conf"), snippets.http);
    await writeFile(path.join(prefix, `${host}.conf`), snippets.server);
    blocks.push(
      `  server {\n    listen 127.0.0.1:${port}${index === 0 ? " default_server" : ""};\n    server_name ${host};\n    include ${host}.conf;\n  }`,
    );
  }
  const conf = path.join(prefix, "nginx.conf");
  await writeFile(
    conf,
    `# The library's own configuration (hand-written), with the catalogue's snippets included.
error_log stderr;
events {
}
http {
  access_log off;
  client_body_temp_path client_body_temp;
  proxy_temp_path proxy_temp;
  fastcgi_temp_path fastcgi_temp;
  uwsgi_temp_path uwsgi_temp;
  scgi_temp_path scgi_temp;
  include http.conf;
${blocks.join("\n")}
}
`,
  );
  const args = [
    "-p",
    prefix,
    "-c",
    conf,
    "-g",
    `daemon off; pid ${path.join(prefix, "nginx.pid")};`,
  ];
  return spawnServer(binary, args, process.env, port);
}

export async function startCaddy(binary: string, fixture: Fixture): Promise<Running> {
  const port = await freePort();
  const home = path.join(fixture.dir, "caddy");
  await mkdir(home, { recursive: true });
  const conf = path.join(home, "Caddyfile");
  await writeFile(conf, caddyConfig(fixture.info, fixture.dist, { address: "127.0.0.1", port }));
  // Caddy keeps state (autosave, certificates) under these: keep it inside the test folder.
  const env = { ...process.env, HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home };
  return spawnServer(binary, ["run", "--adapter", "caddyfile", "--config", conf], env, port);
}

export async function startServe(fixture: Fixture): Promise<Running> {
  const server = await startServer({ dir: fixture.dist, port: 0, host: "127.0.0.1" });
  return { port: Number(new URL(server.url).port), stop: () => server.close() };
}

/**
 * The servers to test. A missing nginx or Caddy fails under CI (it must be installed there) and
 * is skipped with a loud message elsewhere (test/support/requires.ts).
 */
export async function availableServers(): Promise<
  { name: ServerName; binary: string | null; missing: boolean }[]
> {
  const result: { name: ServerName; binary: string | null; missing: boolean }[] = [
    { name: "serve", binary: null, missing: false },
    { name: "edge", binary: null, missing: false },
    // workerd is a binary inside an npm package (@cloudflare/workerd-linux-64): always installed.
    { name: "workerd-assets", binary: null, missing: false },
    { name: "workerd-r2", binary: null, missing: false },
    { name: "cloudfront", binary: null, missing: false },
  ];
  for (const name of ["nginx", "caddy", "nginx-snippets"] as const) {
    const binary = requireTool(
      name === "nginx-snippets" ? "nginx" : name,
      `${name}'s conformance tests`,
    );
    result.push({ name, binary, missing: binary === null });
  }
  return result;
}
