import http from "node:http";
import type { AddressInfo } from "node:net";
import { UserError } from "../errors.ts";
import { readBuildInfo, type BuildInfo } from "../output/build-info.ts";
import { servedHost } from "../serve/server.ts";

/**
 * The preview's own addresses: each host of the build (a domain, a media host) at
 * `http://<host>.localhost:PORT`, which browsers resolve to loopback and which keeps the choice of
 * domain by `Host`. A page or an API page served by dev has its domains' absolute URLs
 * (`links.next`, canonical links, sitemaps, feeds) rewritten to them, so following a link stays on
 * the preview, as Hugo's server does with the base URL. The built files do not change: the
 * rewriting happens in `PreviewProxy`, in front of the server that `catalogue serve` runs.
 */
export class PreviewUrls {
  private readonly pattern: RegExp | null;
  private readonly local: Map<string, string>;
  /** Each domain and its preview address, in domains.csv order. */
  readonly domains: { domain: string; url: string }[];

  constructor(info: BuildInfo, port: number) {
    // Every origin the build writes into its files, and the host whose folder answers it.
    const origins = new Map<string, string>();
    for (const d of info.domains) {
      origins.set(new URL(d.base_url).origin, d.domain);
      const slash = d.media_folder.indexOf("/");
      origins.set(
        new URL(d.media_url).origin,
        slash === -1 ? d.media_folder : d.media_folder.slice(0, slash),
      );
    }
    this.local = new Map(
      [...origins].map(([origin, host]) => [origin, `http://${host}.localhost:${port}`]),
    );
    // Longest first; an origin followed by more of a host name (example.org.uk) is another one.
    const alternatives = [...origins.keys()]
      .sort((a, b) => b.length - a.length)
      .map((o) => o.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    this.pattern =
      alternatives.length === 0
        ? null
        : new RegExp(`(?:${alternatives.join("|")})(?![\\w.:-])`, "g");
    this.domains = info.domains.map((d) => ({
      domain: d.domain,
      url: `${this.local.get(new URL(d.base_url).origin)}${d.base_path}/`,
    }));
  }

  rewrite(text: string): string {
    return this.pattern === null
      ? text
      : text.replace(this.pattern, (origin) => this.local.get(origin) ?? origin);
  }
}

/** Types whose bodies hold the build's absolute URLs: pages, API pages, sitemaps, feeds, robots.txt. */
const TEXT = /^(text\/(?!event-stream)|application\/(json|xml|javascript|[\w.-]+\+(json|xml)))/i;

export interface PreviewProxy {
  url: string;
  urls(): PreviewUrls;
  /** Reads the build's hosts again (after a rebuild: a domain added or its base_url changed). */
  refresh(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on `host:port` and forwards every request to the server at `upstream`, with the Host
 * it knows and no compression or conditional headers (dev is on loopback and never caches a
 * rewritten body); text answers come back with their URLs rewritten, the others as they are.
 */
export async function startPreviewProxy(options: {
  dir: string;
  host: string;
  port: number;
  upstream: string;
}): Promise<PreviewProxy> {
  const upstream = new URL(options.upstream);
  let urls: PreviewUrls | null = null;
  const server = http.createServer((req, res) => {
    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      host: servedHost(req.headers.host),
    };
    for (const name of [
      "accept-encoding",
      "if-none-match",
      "if-modified-since",
      "if-range",
      "range",
    ])
      delete headers[name];
    const forward = http.request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        const type = String(answer.headers["content-type"] ?? "");
        const out = { ...answer.headers };
        if (typeof out.location === "string" && urls !== null)
          out.location = urls.rewrite(out.location);
        if (!TEXT.test(type) || urls === null) {
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.from(urls!.rewrite(Buffer.concat(chunks).toString("utf8")));
          delete out.etag;
          delete out["last-modified"];
          out["cache-control"] = "no-store";
          if (req.method !== "HEAD") out["content-length"] = String(body.length);
          else delete out["content-length"];
          res.writeHead(answer.statusCode ?? 502, out);
          res.end(req.method === "HEAD" ? undefined : body);
        });
        answer.on("error", () => res.destroy());
      },
    );
    forward.on("error", () => {
      if (!res.headersSent)
        res
          .writeHead(502, { "Content-Type": "text/plain; charset=utf-8" })
          .end("catalogue dev: the preview server did not answer\n");
      else res.destroy();
    });
    req.pipe(forward);
    // The page's event stream (or any request) closed by the browser: the forwarded one goes too.
    res.on("close", () => forward.destroy());
  });
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
  const { port } = server.address() as AddressInfo;
  const refresh = async () => {
    urls = await readBuildInfo(options.dir)
      .then((info) => new PreviewUrls(info, port))
      .catch(() => urls);
  };
  await refresh();
  const shown = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    url: `http://${shown}:${port}/`,
    urls: () => urls!,
    refresh,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
