/**
 * Soak test of `catalogue serve`: a seeded catalogue, the real command line as a child process,
 * autocannon at high concurrency on loopback over a mix of API pages, details, exports, media and
 * error paths, and the server's resident memory sampled from /proc every second.
 *
 *   npx tsx scripts/soak.ts [--seconds 60] [--connections 100] [--works 2000] [--dir DIR]
 *
 * Prints the figures and exits 1 on any error, timeout or 5xx, or when memory grew by more than
 * the margin. test/reliability/hostile-requests.e2e.test.ts runs the same code for 10 seconds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { build } from "../src/pipeline/pipeline.ts";
import { readBuildInfo } from "../src/output/build-info.ts";
import { generateCatalogue } from "./generate.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

interface Histogram {
  average: number;
  p99: number;
  total: number;
}
interface CannonResult {
  requests: Histogram;
  latency: Histogram;
  errors: number;
  timeouts: number;
  non2xx: number;
  [status: `${number}xx`]: number;
}
interface CannonOptions {
  url: string;
  connections: number;
  duration: number;
  requests: { method?: string; path: string; headers?: Record<string, string> }[];
}
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (
  options: CannonOptions,
) => Promise<CannonResult>;

export interface ServeProcess {
  child: ChildProcess;
  port: number;
  /** Lines of the access log that report a server-side error (`error: …`). */
  errors: string[];
  /** Requests logged so far. */
  logged(): number;
  stop(): Promise<number | null>;
}

/** Starts `catalogue serve --port 0` on DIR and waits for the address it prints. */
export async function startServe(dir: string): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "bin/catalogue.js"), "serve", "--dir", dir, "--port", "0"],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const errors: string[] = [];
  let lines = 0;
  let pending = "";
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error("catalogue serve did not start within 60 s")),
      60_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const parts = pending.split("\n");
      pending = parts.pop()!;
      for (const line of parts) {
        lines++;
        if (line.startsWith("error:")) errors.push(line);
        const match = /^serving .* on http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
        if (match) {
          clearTimeout(timer);
          done(Number(match[1]));
        }
      }
    });
    child.stderr.on("data", (chunk: Buffer) => errors.push(chunk.toString("utf8")));
    child.once("exit", (code) =>
      fail(new Error(`catalogue serve exited with ${code}: ${errors.join("")}`)),
    );
  });
  return {
    child,
    port,
    errors,
    logged: () => lines,
    stop: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once("exit", (code) => done(code));
        child.kill("SIGTERM");
      }),
  };
}

/** Resident memory of a process, in MiB. */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** A mix of what clients ask: list pages in every format and ordering, details, exports, media, errors. */
export async function soakRequests(dir: string): Promise<CannonOptions["requests"]> {
  const info = await readBuildInfo(dir);
  const requests: CannonOptions["requests"] = [];
  for (const domain of info.domains) {
    const headers = { host: domain.domain, "accept-encoding": "gzip, br" };
    const api = `${domain.base_path}/api/v1/videos/audiovisuals/`;
    for (const [i, ordering] of ["", "name", "-name", "year", "-year"].entries()) {
      for (const format of ["", "api", "json"]) {
        const page = 1 + ((i * 7) % domain.total_pages);
        const query = [
          format && `format=${format}`,
          ordering && `ordering=${ordering}`,
          `page=${page}`,
        ]
          .filter(Boolean)
          .join("&");
        requests.push({ path: `${api}?${query}`, headers });
      }
    }
    requests.push({ path: `${api}?page=last`, headers: { host: domain.domain } });
    const ids = (await readdir(path.join(dir, domain.domain, "_api/detail")))
      .slice(0, 5)
      .map((n) => n.replace(/\.json$/, ""));
    for (const id of ids) requests.push({ path: `${api}${id}/`, headers });
    requests.push({ path: `${api}export_excel/`, headers: { host: domain.domain } });
    const media = (await readdir(path.join(dir, domain.media_folder))).slice(0, 3);
    for (const name of media)
      requests.push({
        path: `${domain.base_path}/media/${name}`,
        headers: { host: domain.domain },
      });
    // Answers that are not 2xx on purpose are left out, so that non2xx counts real failures.
  }
  return requests;
}

export interface SoakResult {
  seconds: number;
  connections: number;
  requests: number;
  perSecond: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  serverErrors: number;
  rssBefore: number;
  rssAfter: number;
  rssMax: number;
}

/** Warms the server up, then loads it for `seconds` while sampling its memory. */
export async function soak(
  server: ServeProcess,
  requests: CannonOptions["requests"],
  seconds: number,
  connections: number,
): Promise<SoakResult> {
  const url = `http://127.0.0.1:${server.port}`;
  // Warm-up: every answer cached and compressed once, the heap at its working size.
  await autocannon({ url, connections, duration: 3, requests });
  const rssBefore = await rssMiB(server.child.pid!);
  let rssMax = rssBefore;
  const sampler = setInterval(() => {
    rssMiB(server.child.pid!).then(
      (rss) => (rssMax = Math.max(rssMax, rss)),
      () => {},
    );
  }, 1000);
  let result: CannonResult;
  try {
    result = await autocannon({ url, connections, duration: seconds, requests });
  } finally {
    clearInterval(sampler);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const rssAfter = await rssMiB(server.child.pid!);
  const serverErrors = (result["5xx"] ?? 0) + server.errors.length;
  return {
    seconds,
    connections,
    requests: result.requests.total,
    perSecond: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    serverErrors,
    rssBefore,
    rssAfter,
    rssMax,
  };
}

/** Memory is flat when it grew by less than this over the run (after the warm-up). */
const RSS_MARGIN_MIB = 64;
export const isFlat = (r: SoakResult) =>
  r.rssAfter - r.rssBefore < RSS_MARGIN_MIB && r.rssAfter < r.rssBefore * 1.5;

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      seconds: { type: "string", default: "60" },
      connections: { type: "string", default: "100" },
      works: { type: "string", default: "2000" },
      dir: { type: "string" },
    },
  });
  let dir = values.dir;
  let scratch: string | null = null;
  if (dir === undefined) {
    scratch = await mkdtemp(path.join(tmpdir(), "catalogue-soak-"));
    await generateCatalogue(path.join(scratch, "content"), {
      works: Number(values.works),
      domains: 2,
    });
    dir = path.join(scratch, "dist");
    await build({
      contentDir: path.join(scratch, "content"),
      outDir: dir,
      date: "2026-11-20",
      cacheDir: path.join(scratch, "cache"),
      site: false,
    });
  }
  const server = await startServe(dir);
  try {
    const result = await soak(
      server,
      await soakRequests(dir),
      Number(values.seconds),
      Number(values.connections),
    );
    const f = (n: number) => n.toFixed(0);
    console.log(
      `| seconds | connections | requests | req/s | p99 ms | errors | timeouts | non-2xx | 5xx + server errors | RSS before → after (max) MiB |\n` +
        `|---|---|---|---|---|---|---|---|---|---|\n` +
        `| ${result.seconds} | ${result.connections} | ${result.requests} | ${f(result.perSecond)} | ${result.p99} | ${result.errors} | ${result.timeouts} | ${result.non2xx} | ${result.serverErrors} | ${f(result.rssBefore)} → ${f(result.rssAfter)} (${f(result.rssMax)}) |`,
    );
    const ok =
      result.errors === 0 &&
      result.timeouts === 0 &&
      result.non2xx === 0 &&
      result.serverErrors === 0 &&
      isFlat(result);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.stop();
    if (scratch !== null) await rm(scratch, { recursive: true, force: true });
  }
}
