/**
 * Load run of `catalogue serve`, of nginx with the generated configuration and of the Worker of
 * `catalogue config workers` in workerd (through Miniflare 3, its files as static assets;
 * `workerd-r2` reads them from Miniflare's local R2), on the same build and the same API page,
 * with autocannon on loopback for a bounded time each.
 *
 *   npx tsx scripts/bench-load.ts [--dir DIR] [--seconds 10] [--connections 50] [--servers serve,nginx,workerd,json-server] [--works 2000]
 *
 * json-server is the reference users know: it serves the first domain's listed works from a
 * db.json and answers the same page with its own paging (`_sort`, `_order`, `_page`, `_limit`).
 *
 * Without --dir it generates and builds a catalogue in a temporary folder. Prints requests/s,
 * latency p99, errors and non-2xx answers per server, and serve's resident memory sampled during
 * the run (flat memory under load is part of the contract of `catalogue serve`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, mkdir, readFile, rm, writeFile, chmod } from "node:fs/promises";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "../src/pipeline/pipeline.ts";
import { readBuildInfo } from "../src/output/build-info.ts";
import { nginxConfig } from "../src/serve/nginx.ts";
import { reportRows } from "./bench/rows.ts";
import { generateCatalogue } from "./generate.ts";
import { startWorkerd, type RunningWorker } from "../test/edge/workerd.ts";

interface LoadResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<LoadResult>;
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    servers: { type: "string", default: "serve,nginx,workerd,json-server" },
    works: { type: "string", default: "2000" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const servers = values.servers.split(",");

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => done(port));
    });
  });
}

async function waitFor(port: number, child: ChildProcess) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((done) => {
      const socket = net.connect(port, "127.0.0.1", () => (socket.destroy(), done(true)));
      socket.once("error", () => done(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

const stop = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });

const work = await mkdtemp(path.join(tmpdir(), "catalogue-bench-load-"));
await chmod(work, 0o755); // nginx started as root reads the build as "nobody"
const children: ChildProcess[] = [];
const workers: RunningWorker[] = [];
try {
  let dir = values.dir;
  if (dir === undefined) {
    const content = path.join(work, "content");
    await generateCatalogue(content, { works: Number(values.works), domains: 2 });
    dir = path.join(work, "dist");
    const summary = await build({
      contentDir: content,
      outDir: dir,
      date: "2026-11-20",
      site: false,
      cacheDir: path.join(work, ".cache"),
    });
    console.log(
      `built ${summary.files} files (${values.works} works, 2 domains) in ${summary.seconds.toFixed(1)} s`,
    );
  }
  dir = path.resolve(dir);
  const info = await readBuildInfo(dir);
  const domain = info.domains[0]!;
  const target = `${domain.base_path}/api/v1/videos/audiovisuals/?format=api&ordering=-year&page=${Math.min(2, domain.total_pages)}`;
  console.log(
    `load: ${connections} connections, ${seconds} s per server, GET ${target} (Host: ${domain.domain})\n`,
  );

  const rows: string[][] = [
    ["server", "req/s", "p99 ms", "avg ms", "requests", "errors", "timeouts", "non-2xx", "RSS MiB"],
  ];
  for (const name of servers) {
    let port = await freePort();
    let child: ChildProcess | null = null;
    let worker: RunningWorker | null = null;
    if (name === "workerd" || name === "workerd-r2") {
      // Miniflare starts workerd, which listens itself: Node is not between the client and the Worker.
      workers.push((worker = await startWorkerd(dir, name === "workerd" ? "assets" : "r2")));
      port = worker.port;
    } else if (name === "serve") {
      child = spawn(
        process.execPath,
        [path.join(ROOT, "bin/catalogue.js"), "serve", "--dir", dir, "--port", String(port)],
        { stdio: "ignore" },
      );
    } else if (name === "nginx") {
      const prefix = path.join(work, "nginx");
      await mkdir(prefix, { recursive: true });
      const conf = path.join(prefix, "nginx.conf");
      // The access log goes to /dev/null like serve's (stdout ignored): both pay for writing it.
      await writeFile(conf, nginxConfig(info, dir, { address: "127.0.0.1", port }));
      child = spawn(
        "nginx",
        ["-p", prefix, "-c", conf, "-g", `daemon off; pid ${path.join(prefix, "nginx.pid")};`],
        { stdio: "ignore" },
      );
    } else if (name === "json-server") {
      // The same listed works as the API's elements, in one collection.
      const elements: unknown[] = [];
      for (let page = 1; page <= domain.total_pages; page++) {
        const body = JSON.parse(
          await readFile(
            path.join(dir, domain.domain, "_api/list/plain/name", `${page}.json`),
            "utf8",
          ),
        ) as { results: { id: number }[] };
        for (const element of body.results)
          elements.push({
            ...element,
            year: (
              JSON.parse(
                await readFile(
                  path.join(dir, domain.domain, "_api/detail", `${element.id}.json`),
                  "utf8",
                ),
              ) as { year: number | null }
            ).year,
          });
      }
      const db = path.join(work, "db.json");
      await writeFile(db, JSON.stringify({ audiovisuals: elements }));
      child = spawn(
        path.join(ROOT, "node_modules/.bin/json-server"),
        ["--port", String(port), "--host", "127.0.0.1", "--quiet", db],
        { stdio: "ignore" },
      );
    } else
      throw new Error(
        `--servers: unknown server ${name} (serve, nginx, workerd, workerd-r2, json-server)`,
      );
    if (child !== null) {
      children.push(child);
      await waitFor(port, child);
    }
    const requestPath =
      name === "json-server"
        ? `/audiovisuals?_sort=year&_order=desc&_page=${Math.min(2, domain.total_pages)}&_limit=20`
        : target;
    // Warm up (first-request compilation, file caches), then measure.
    await autocannon({
      url: `http://127.0.0.1:${port}${requestPath}`,
      connections: 4,
      duration: 1,
      headers: { host: domain.domain },
    });
    const rssBefore = name === "serve" ? await rssMiB(child!.pid!) : NaN;
    const samples: number[] = [];
    const sampler = setInterval(
      () => {
        if (name === "serve") void rssMiB(child!.pid!).then((m) => samples.push(m));
      },
      Math.max(1000, (seconds * 1000) / 12),
    );
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${requestPath}`,
      connections,
      duration: seconds,
      headers: { host: domain.domain },
    });
    clearInterval(sampler);
    const rssAfter = name === "serve" ? await rssMiB(child!.pid!) : NaN;
    rows.push([
      name,
      result.requests.average.toFixed(0),
      String(result.latency.p99),
      result.latency.average.toFixed(2),
      String(result.requests.total),
      String(result.errors),
      String(result.timeouts),
      String(result.non2xx),
      name === "serve" ? `${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)}` : "-",
    ]);
    if (name === "serve")
      console.log(`serve RSS during the run (MiB): ${samples.map((m) => m.toFixed(0)).join(" ")}`);
    if (child !== null) await stop(child);
    if (worker !== null) {
      await worker.stop();
      workers.splice(workers.indexOf(worker), 1);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  console.log(rows.map((r) => r.map((cell, i) => cell.padStart(widths[i]!)).join("  ")).join("\n"));
  const rate = (server: string) => Number(rows.find((r) => r[0] === server)?.[1] ?? NaN);
  const served = rows.find((r) => r[0] === "serve");
  const worker = rows.find((r) => r[0] === "workerd");
  if (worker !== undefined) {
    await reportRows([
      {
        measure: `the Worker in workerd (Miniflare 3, static assets), ${connections} connections, ${seconds} s, the same page (p99 ${worker[2]} ms, ${worker[5]} errors)`,
        ours: `${worker[1]} req/s`,
        peer: `nginx ${rate("nginx")} req/s; catalogue serve ${rate("serve")} req/s`,
        ratio: `${(rate("workerd") / rate("nginx")).toFixed(2)} of nginx`,
        target: "no errors (a local runtime, not Cloudflare's edge: no throughput target)",
      },
    ]);
  }
  if (served !== undefined) {
    await reportRows([
      {
        measure: `catalogue serve, ${connections} connections, ${seconds} s, one page (p99 ${served[2]} ms, ${served[5]} errors)`,
        ours: `${served[1]} req/s`,
        peer: `nginx ${rate("nginx")} req/s; Worker in workerd ${rate("workerd")} req/s; json-server ${rate("json-server")} req/s`,
        ratio: `${(rate("serve") / rate("nginx")).toFixed(2)} of nginx`,
        target: "at least a third of nginx",
      },
    ]);
  }
  const failed = rows.slice(1).some((r) => r[5] !== "0" || r[6] !== "0" || r[7] !== "0");
  if (failed) {
    console.error("\nerrors, timeouts or non-2xx answers under load");
    process.exitCode = 1;
  }
} finally {
  await Promise.all([...children.map(stop), ...workers.map((w) => w.stop())]);
  await rm(work, { recursive: true, force: true });
}
