import { createHash } from "node:crypto";
import { readFile, realpath, rm } from "node:fs/promises";
import path from "node:path";
import http from "node:http";
import net from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.ts";
import { MANIFEST_PATH, parseManifest } from "../../src/output/tree.ts";
import { UserError } from "../../src/errors.ts";
import { startServer, type RunningServer } from "../../src/serve/server.ts";
import { startCatalogue } from "../support/command.ts";
import { makeFixture, type Fixture } from "./fixture.ts";
import { ask } from "./http.ts";

/** What only `catalogue serve` does: brotli, keep-alive, the CLI (logs, signals), config printing. */

let fx: Fixture;
let server: RunningServer;
let port: number;
const lines: string[] = [];
const API = "/api/v1/videos/audiovisuals/";

beforeAll(async () => {
  fx = await makeFixture();
  server = await startServer({
    dir: fx.dist,
    port: 0,
    host: "127.0.0.1",
    log: (line) => lines.push(line),
  });
  port = Number(new URL(server.url).port);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await fx?.cleanup();
});

function capture() {
  let stdout = "";
  let stderr = "";
  const sink = (append: (s: string) => void) =>
    ({ write: (s: string) => (append(s), true) }) as unknown as NodeJS.WritableStream;
  return {
    io: {
      stdout: sink((s) => (stdout += s)),
      stderr: sink((s) => (stderr += s)),
      interactive: false,
      env: {},
    },
    out: () => stdout,
    err: () => stderr,
  };
}

describe("catalogue serve", () => {
  it("compresses with brotli when accepted, caching the result, and sends weak ETags for it", async () => {
    const target = `${API}?page=3`;
    const expected = await fx.read("domain-1.example/_api/list/plain/default/3.json");
    for (let i = 0; i < 2; i++) {
      const reply = await ask(port, {
        host: "domain-1.example",
        path: target,
        headers: { "Accept-Encoding": "gzip, br" },
      });
      expect(reply.headers["content-encoding"]).toBe("br");
      expect(reply.headers.etag).toMatch(/^W\/"[0-9a-f]{32}"$/);
      expect(reply.headers.vary).toBe("Accept, Accept-Encoding");
      expect(brotliDecompressSync(reply.body).equals(expected)).toBe(true);
    }
    const gzip = await ask(port, {
      host: "domain-1.example",
      path: target,
      headers: { "Accept-Encoding": "br;q=0, gzip" },
    });
    expect(gunzipSync(gzip.body).equals(expected)).toBe(true);
    const plain = await ask(port, { host: "domain-1.example", path: target });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    // The validator is the page's key in the manifest (pages are keyed, not hashed, by the build).
    const manifest = parseManifest((await fx.read(MANIFEST_PATH)).toString());
    const page = manifest.get("domain-1.example/_api/list/plain/default/3.json")!;
    expect(page.md5).toBeUndefined();
    expect(plain.headers.etag).toBe(`"${page.key}"`);
    // The OpenAPI description is keyed by the MD5 of its bytes (src/domain-files.ts): that is its validator.
    const openapi = [...manifest.keys()].find(
      (rel) => rel.startsWith("domain-1.example/") && rel.endsWith("openapi.json"),
    )!;
    const described = await ask(port, {
      host: "domain-1.example",
      path: `/${openapi.slice("domain-1.example/".length)}`,
    });
    expect(described.headers.etag).toBe(`"${manifest.get(openapi)!.key}"`);
    expect(manifest.get(openapi)!.key).toBe(createHash("md5").update(described.body).digest("hex"));
  });

  it("answers DOMAIN.localhost as DOMAIN, and lists each domain's address", async () => {
    const expected = await fx.read("domain-2.example/_api/list/plain/default/1.json");
    for (const host of [`domain-2.example.localhost:${port}`, "DOMAIN-2.example.localhost."]) {
      const reply = await ask(port, { host, path: `/cataleg${API}` });
      expect([host, reply.status]).toEqual([host, 200]);
      expect(reply.body.equals(expected)).toBe(true);
    }
    // Another name under .localhost is an unknown host: the first domain answers.
    const unknown = await ask(port, { host: `nosuch.localhost:${port}`, path: API });
    expect(
      unknown.body.equals(await fx.read("domain-1.example/_api/list/plain/default/1.json")),
    ).toBe(true);
    expect(await server.addresses()).toEqual([
      { domain: "domain-1.example", url: `http://domain-1.example.localhost:${port}/` },
      { domain: "domain-2.example", url: `http://domain-2.example.localhost:${port}/cataleg/` },
      { domain: "domain-3.example", url: `http://domain-3.example.localhost:${port}/` },
    ]);
  });

  it("keeps connections alive", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((done, fail) => {
        const req = http.get(
          { host: "127.0.0.1", port, path: API, agent, headers: { Host: "domain-1.example" } },
          (res) => {
            sockets.add(res.socket);
            res.resume();
            res.on("end", () => done());
          },
        );
        req.on("error", fail);
      });
    }
    agent.destroy();
    expect(sockets.size).toBe(1);
  });

  it("writes one access-log line per request", async () => {
    const before = lines.length;
    await ask(port, {
      host: "domain-2.example",
      path: "/cataleg/api/v1/videos/audiovisuals/?page=0",
    });
    expect(lines.length).toBe(before + 1);
    expect(lines.at(-1)).toMatch(
      /^127\.0\.0\.1 "domain-2\.example" "GET \/cataleg\/api\/v1\/videos\/audiovisuals\/\?page=0" 404 \d+ [\d.]+ms$/,
    );
  });

  it("answers a missing spreadsheet with the API's JSON 404, not with the spreadsheet's headers", async () => {
    await rm(
      path.join(await realpath(fx.dist), "domain-3.example/_api/export/export_down_movies.xlsx"),
      { force: true },
    );
    const reply = await ask(port, { host: "domain-3.example", path: `${API}export_down_movies/` });
    expect(reply.status).toBe(404);
    expect(reply.headers["content-type"]).toBe("application/json");
    expect(reply.headers["content-disposition"]).toBeUndefined();
    expect(reply.body.toString()).toBe(
      (await fx.read("domain-3.example/_api/error/not-found.json")).toString(),
    );
  });

  it("drops a client that never finishes its headers", async () => {
    const slow = await startServer({
      dir: fx.dist,
      port: 0,
      host: "127.0.0.1",
      headersTimeout: 500,
    });
    try {
      const started = Date.now();
      const text = await new Promise<string>((done, fail) => {
        const socket = net.connect(Number(new URL(slow.url).port), "127.0.0.1", () =>
          socket.write("GET / HTTP/1.1\r\nHost: domain-1.example\r\n"),
        );
        let received = "";
        socket.on("data", (c: Buffer) => (received += c.toString()));
        socket.on("close", () => done(received));
        socket.on("error", fail);
        setTimeout(() => fail(new Error("still connected after 10 s")), 10_000).unref();
      });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(text).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await slow.close();
    }
  });

  it("refuses to start on a folder without a build, or on a busy port", async () => {
    await expect(startServer({ dir: fx.content, port: 0, host: "127.0.0.1" })).rejects.toThrow(
      UserError,
    );
    await expect(startServer({ dir: fx.dist, port, host: "127.0.0.1" })).rejects.toThrow(
      /cannot listen/,
    );
  });

  it("runs from the command line: prints its URL, logs, stops on SIGTERM with exit 0", async () => {
    const serve = startCatalogue(["serve", "--dir", fx.dist, "--port", "0"], { inherit: true });
    const [, url] = await serve.waitFor(/on (http:\/\/127\.0\.0\.1:\d+\/)/);
    const reply = await ask(Number(new URL(url!).port), {
      host: "domain-3.example",
      path: `${API}?page=last`,
    });
    expect(reply.status).toBe(200);
    const { code, stdout } = await serve.stop("SIGTERM");
    expect(code).toBe(0);
    expect(stdout).toContain('"GET /api/v1/videos/audiovisuals/?page=last" 200');
    expect(stdout).toMatch(/stopped\n$/);
  }, 90_000);

  it("rejects a bad --port with exit 1", async () => {
    const c = capture();
    expect(await run(["serve", "--port", "http"], c.io)).toBe(1);
    expect(c.err()).toContain("--port");
  });
});

describe("catalogue config", () => {
  it("prints complete nginx and Caddy configurations naming DIR itself, for every host", async () => {
    for (const server of ["nginx", "caddy"]) {
      const c = capture();
      expect(
        await run(["config", server, "--dir", fx.dist, "--listen", "127.0.0.1:9090"], c.io),
      ).toBe(0);
      const text = c.out();
      for (const host of [
        "domain-1.example",
        "domain-2.example",
        "domain-3.example",
        "media.example",
      ])
        expect(text).toContain(`${fx.dist}/${host}`);
      expect(text).toContain("9090");
      expect(text).not.toMatch(/^\s*(daemon|pid|user)\s/m);
    }
  });

  it("writes nginx snippets for one host: the maps for the http block, the locations for its server block", async () => {
    const out = path.join(fx.dir, "snippets");
    const c = capture();
    expect(
      await run(
        ["config", "nginx", "--dir", fx.dist, "--snippets", out, "--domain", "domain-2.example"],
        c.io,
      ),
    ).toBe(0);
    const http = await readFile(path.join(out, "http.conf"), "utf8");
    const server = await readFile(path.join(out, "server.conf"), "utf8");
    expect(http).toMatch(/^map \$args \$catalogue_page_arg \{$/m);
    expect(http).not.toMatch(/^\s*(server|location|listen|http|events)\b/m);
    expect(server).toContain(`root '${fx.dist}/domain-2.example';`);
    expect(server).toContain("location = /cataleg/api/v1/videos/audiovisuals/ {");
    expect(server).not.toMatch(/^\s*(map|listen|server_name|http|events|server)\b/m);
    const bad = capture();
    expect(
      await run(
        ["config", "nginx", "--dir", fx.dist, "--snippets", out, "--domain", "nowhere.example"],
        bad.io,
      ),
    ).toBe(1);
    expect(bad.err()).toMatch(/^catalogue config: --domain: no host nowhere\.example in the build/);
  });

  it("exits 1 with a message for an unknown server, a bad --listen or a folder without a build", async () => {
    for (const args of [
      ["config", "apache"],
      ["config"],
      ["config", "nginx", "--listen", "8080"],
      ["config", "caddy", "--dir", fx.content],
    ]) {
      const c = capture();
      expect(await run(args, c.io), args.join(" ")).toBe(1);
      expect(c.err()).toMatch(/^catalogue config: /);
    }
  });
});
