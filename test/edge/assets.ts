import { createHash } from "node:crypto";
import { readFile, realpath } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gzipSync } from "node:zlib";
import worker, { type Assets } from "../../src/edge/worker.ts";
import { asyncHandler } from "../support/async-handler.ts";

/** `env.ASSETS` over a build folder: `GET /<path>` answers the file at that path, else 404. */
export function folderAssets(dir: string): Assets {
  return {
    async fetch(request: Request) {
      const root = await realpath(dir);
      const rel = decodeURIComponent(new URL(request.url).pathname);
      try {
        // A CDN's asset store has no links: one leading out of the build is not a file of it.
        const file = await realpath(path.join(root, rel));
        if (!file.startsWith(root + path.sep)) return new Response(null, { status: 404 });
        const bytes = await readFile(file);
        // As an asset store answers: with a length and a strong validator.
        return new Response(bytes, {
          headers: {
            "Content-Length": String(bytes.length),
            ETag: `"${createHash("md5").update(bytes).digest("hex")}"`,
          },
        });
      } catch {
        return new Response(null, { status: 404 });
      }
    },
  };
}

/**
 * The edge function behind a loopback HTTP server (as a CDN runs it), so that HTTP conformance
 * suites can send it real requests: `startEdge(dist)` → `{ port, stop }`.
 */
export async function startEdge(dir: string): Promise<{ port: number; stop(): Promise<void> }> {
  const env = { ASSETS: folderAssets(dir) };
  const server: Server = createServer(
    asyncHandler(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string") headers.set(name, value);
      const body =
        chunks.length > 0 && req.method !== "GET" && req.method !== "HEAD"
          ? Buffer.concat(chunks)
          : undefined;
      let request: Request;
      try {
        // The raw target is kept as sent: the worker sees the path and query a CDN would pass on.
        request = new Request(`http://${req.headers.host ?? "localhost"}${req.url}`, {
          method: req.method,
          headers,
          body,
        });
      } catch {
        // A Host or target no URL can hold: the CDN refuses it before any code runs.
        res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
        res.end("Bad request\n");
        return;
      }
      const response = await worker.fetch(request, env);
      let bytes = Buffer.from(await response.arrayBuffer());
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => (out[name] = value));
      // What the CDN itself adds in front of the function: compression for clients that accept it.
      const type = out["content-type"] ?? "";
      const size = req.method === "HEAD" ? Number(out["content-length"] ?? 0) : bytes.length;
      if (
        /^(text\/|application\/(json|javascript|xml|atom\+xml))/.test(type) &&
        size >= 256 &&
        response.status === 200
      ) {
        out.vary = out.vary ? `${out.vary}, Accept-Encoding` : "Accept-Encoding";
        if (/\bgzip\b/.test(req.headers["accept-encoding"] ?? "")) {
          bytes = gzipSync(bytes);
          out["content-encoding"] = "gzip";
          if (out.etag) out.etag = `W/${out.etag.replace(/^W\//, "")}`;
          if (req.method !== "HEAD") out["content-length"] = String(bytes.length);
          else delete out["content-length"];
        }
      }
      if (req.method !== "HEAD") out["content-length"] = String(bytes.length);
      res.writeHead(response.status, out);
      res.end(req.method === "HEAD" ? undefined : bytes);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
