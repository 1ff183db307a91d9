import * as fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { UserError } from "../errors.ts";
import { resolve } from "./resolve.ts";
import { selectHost, type HostRoutes } from "./routes.ts";
import { answerWith, sendPlain, type DevHooks } from "./respond.ts";
import { loadSite, type ServedBuild } from "./served-build.ts";

/**
 * `catalogue serve`: the routing table (routes.ts, applied by resolve.ts) on node:http. The
 * output folder is resolved on every request, so an atomic rebuild (a new target of the `dist`
 * link) is served from the next request on, without a restart.
 */

export interface ServeOptions {
  dir: string;
  port: number;
  host: string;
  /** One line per request (the access log). */
  log?: (line: string) => void;
  /** Milliseconds a client has to send its headers (default 10 s); the whole request gets 3×. */
  headersTimeout?: number;
  /** `catalogue dev` only: its own URLs, and its script added to every HTML page (src/dev/reload.ts). */
  dev?: DevHooks;
}

export interface RunningServer {
  url: string;
  server: http.Server;
  /** Each domain of the build now served, and its address in a browser on this machine (`DOMAIN.localhost`). */
  addresses(): Promise<{ domain: string; url: string }[]>;
  /** Reads the build DIR points at now (dev, after a rebuild: before the pages reload, not while they wait). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const dir = path.resolve(options.dir);
  const sites = new SiteCache(dir);
  await sites.current(); // fail now, with a message, when DIR holds no build
  const log = options.log ?? (() => {});

  const headersTimeout = options.headersTimeout ?? 10_000;
  const serverOptions = {
    keepAlive: true,
    headersTimeout,
    requestTimeout: 3 * headersTimeout,
    // Node checks those deadlines on this interval (30 s by default): slow clients go sooner.
    connectionsCheckingInterval: Math.min(1_000, headersTimeout),
  };
  const server = http.createServer(serverOptions, (req, res) =>
    onRequest(sites, log, req, res, options.dev),
  );
  server.keepAliveTimeout = 5_000;
  // A client that stops reading (or sending) is dropped after a minute of silence.
  server.setTimeout(60_000, (socket) => socket.destroy());

  await new Promise<void>((done, fail) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "EADDRINUSE" || error.code === "EACCES"
          ? new UserError(
              `cannot listen on ${options.host}:${options.port}: ${error.code}; choose another --port`,
            )
          : error,
      ),
    );
    server.listen(options.port, options.host, () => done());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/`,
    server,
    addresses: async () =>
      (await sites.current()).info.domains.map((d) => ({
        domain: d.domain,
        url: `http://${d.domain}.localhost:${address.port}${d.base_path}/`,
      })),
    refresh: async () => void (await sites.current(true)),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; then every connection goes.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }),
  };
}

function onRequest(
  sites: SiteCache,
  log: (line: string) => void,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dev: DevHooks | undefined,
) {
  const started = performance.now();
  res.on("close", () => {
    const ms = (performance.now() - started).toFixed(1);
    const target = JSON.stringify(req.url ?? "").slice(1, -1);
    log(
      `${req.socket.remoteAddress ?? "-"} ${JSON.stringify(req.headers.host ?? "")} "${req.method} ${target}" ${res.statusCode} ${String(res.getHeader("Content-Length") ?? "-")} ${ms}ms`,
    );
  });
  handle(sites, req, res, dev).catch((error) => {
    // A bug or an I/O failure: answer 500 if nothing was sent yet, never crash the server.
    log(`error: ${(error as Error).stack ?? String(error)}`);
    if (!res.headersSent) sendPlain(req, res, 500, "Internal server error\n");
    else res.destroy();
  });
}

/**
 * The build behind DIR, reloaded when DIR starts pointing at another version. Where DIR points is
 * looked up at most every LINK_CHECK_MS: a rebuild is served within that time, and a busy server
 * does not pay a realpath (a thread-pool round trip) on every request.
 */
const LINK_CHECK_MS = 200;

class SiteCache {
  private site: ServedBuild | null = null;
  private checked = 0;
  constructor(private readonly dir: string) {}

  async current(force = false): Promise<ServedBuild> {
    const now = performance.now();
    if (!force && this.site !== null && now - this.checked < LINK_CHECK_MS) return this.site;
    this.checked = now;
    let root: string;
    try {
      root = await fs.realpath(this.dir);
    } catch {
      throw new UserError(`${this.dir} does not exist: run "catalogue build" first, or pass --dir`);
    }
    if (this.site?.root !== root) {
      const isLink = (await fs.lstat(this.dir)).isSymbolicLink();
      this.site = await loadSite(root, isLink);
    }
    return this.site;
  }
}

async function handle(
  sites: SiteCache,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  dev: DevHooks | undefined,
) {
  if (dev?.handle(req, res)) return;
  const site = await sites.current();
  const host = hostOf(site.table, req.headers.host);
  // The host's own headers (nosniff, its policies) go on every answer, whatever follows.
  for (const [name, value] of Object.entries(host.headers)) res.setHeader(name, value);
  const answer = resolve(host, { method: req.method ?? "GET", url: req.url ?? "/" });
  await answerWith(site, host, req, res, answer, dev);
}

/**
 * The host a request's `Host` names. `DOMAIN.localhost[:PORT]`, which browsers resolve to
 * loopback (RFC 6761), stands for DOMAIN, unless a host of the build has that very name: a
 * browser on the machine reaches every domain of the build without a hosts file or a Host header.
 */
function hostOf(table: HostRoutes[], header: string | undefined): HostRoutes {
  const named = selectHost(table, header);
  const name = (header ?? "").replace(/:\d*$/, "").replace(/\.$/, "").toLowerCase();
  return named.host === name ? named : selectHost(table, servedHost(header));
}

/** `Host: name.localhost:PORT` as the build knows the host: `name:PORT` (dev's preview forwards it so). */
export function servedHost(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^(.*)\.localhost\.?(:\d+)?$/i.exec(header);
  return match === null ? header : `${match[1]}${match[2] ?? ""}`;
}
