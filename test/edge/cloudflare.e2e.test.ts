import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { Miniflare } from "miniflare";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bundleWorkerSources } from "../../src/edge/bundle.ts";
import cloudflare from "../../src/edge/cloudflare.ts";
import { r2Assets, type R2Bucket } from "../../src/edge/r2.ts";
import { ASSET_LIMITS, checkAssetLimits, COMPATIBILITY_DATE } from "../../src/edge/wrangler.ts";
import type { FileEntry } from "../../src/output/tree.ts";
import { catalogue } from "../support/command.ts";
import { makeFixture, type Fixture } from "../serve/fixture.ts";
import { ask } from "../serve/http.ts";
import { miniflareOptions } from "./workerd.ts";

/**
 * `catalogue config workers`: the files it writes, and the Worker they make, run in workerd from
 * those very files. The full conformance run of that Worker is in test/serve/conformance.e2e.test.ts.
 */

const API = "/api/v1/videos/audiovisuals/";
let fx: Fixture;

beforeAll(async () => {
  fx = await makeFixture();
}, 120_000);
afterAll(() => fx?.cleanup());
afterEach(() => vi.useRealTimers());

/** `catalogue config workers` of the fixture's build; a failure is a result (see failing cases). */
const runConfigWorkers = (...args: string[]) =>
  catalogue(["config", "workers", "--dir", fx.dist, ...args], { inherit: true });
/** The same, which must succeed. */
const configWorkers = async (...args: string[]) => {
  const ran = await runConfigWorkers(...args);
  expect(ran.code, ran.stderr).toBe(0);
  return ran;
};
const readOut = async (out: string) => ({
  code: await readFile(path.join(out, "worker.js"), "utf8"),
  config: JSON.parse(await readFile(path.join(out, "wrangler.json"), "utf8")) as Record<
    string,
    any
  >,
  raw: await readFile(path.join(out, "wrangler.json")),
});

describe("catalogue config workers", () => {
  it("writes the bundle and a wrangler.json serving the build folder as static assets, every request through the Worker", async () => {
    const out = path.join(fx.dir, "worker");
    const { stderr } = await configWorkers("--out", out);
    expect(stderr).toBe(
      `wrote ${path.join(out, "worker.js")} and ${path.join(out, "wrangler.json")}\n`,
    );
    const { code, config, raw } = await readOut(out);
    expect(config).toEqual({
      name: "catalogue",
      main: "worker.js",
      compatibility_date: COMPATIBILITY_DATE,
      no_bundle: true,
      // domain-2 lives under /cataleg and keeps its media on media.example/covers; the others' media are under their own routes.
      routes: [
        "domain-1.example/*",
        "domain-2.example/cataleg",
        "domain-2.example/cataleg/*",
        "domain-3.example/*",
        "media.example/covers/*",
      ],
      // The link `dist`, not the version it shows: a redeploy after a build takes the new one.
      assets: {
        directory: "../dist",
        binding: "ASSETS",
        run_worker_first: true,
        html_handling: "none",
        not_found_handling: "none",
      },
    });
    // The command runs the compiled package, which carries the bundle prebuilt: the same bytes as a
    // bundle of these sources, which the workerd suites run.
    expect(code).toBe(await bundleWorkerSources());
    // One self-contained module: nothing imported, nothing from Node.
    expect(code).toMatch(/^export \{/m);
    expect(code).not.toMatch(/^\s*import\b|\brequire\(|["']node:/m);
    // Deterministic: the same build gives the same bytes.
    await configWorkers("--out", out);
    const again = await readOut(out);
    expect(again.code).toBe(code);
    expect(again.raw.equals(raw)).toBe(true);
  });

  it("makes a Worker that runs in workerd from the written files, the assets folder resolved from wrangler.json's folder", async () => {
    const out = path.join(fx.dir, "deploy/worker");
    await configWorkers("--out", out);
    const { code, config } = await readOut(out);
    expect(config.assets.directory).toBe("../../dist");
    config.assets.directory = path.resolve(out, config.assets.directory);
    const mf = new Miniflare(miniflareOptions(config, code));
    try {
      const port = Number((await mf.ready).port);
      const page = await ask(port, {
        host: "domain-2.example",
        path: `/cataleg${API}?ordering=-year&page=2&format=json`,
      });
      expect(page.status).toBe(200);
      expect(page.body.equals(await fx.read("domain-2.example/_api/list/json/-year/2.json"))).toBe(
        true,
      );
      // The asset store never answers by itself: the raw files stay hidden.
      expect(
        (await ask(port, { host: "domain-1.example", path: "/_catalogue/build.json" })).status,
      ).toBe(404);
      expect(
        (await ask(port, { host: "domain-1.example", path: "/_api/list/plain/default/1.json" }))
          .status,
      ).toBe(404);
    } finally {
      await mf.dispose();
    }
  });

  it("binds the R2 bucket publish writes to, with its prefix, instead of static assets", async () => {
    const out = path.join(fx.dir, "worker-r2");
    await configWorkers(
      "--out",
      out,
      "--r2",
      "library-site/catalogue/prod/",
      "--name",
      "library-catalogue",
    );
    const { config } = await readOut(out);
    expect(config.name).toBe("library-catalogue");
    expect(config.assets).toBeUndefined();
    expect(config.r2_buckets).toEqual([
      { binding: "CATALOGUE_BUCKET", bucket_name: "library-site" },
    ]);
    expect(config.vars).toEqual({ CATALOGUE_PREFIX: "catalogue/prod" });
  });

  it("refuses bad options with a one-line message and leaves written files alone", async () => {
    const out = path.join(fx.dir, "worker-kept");
    await configWorkers("--out", out);
    const before = await stat(path.join(out, "wrangler.json"));
    for (const [args, message] of [
      [
        ["--out", out, "--r2", "Bad_Bucket"],
        /^catalogue config: --r2 Bad_Bucket: a bucket name is 3 to 63 lowercase letters/,
      ],
      [
        ["--out", out, "--name", "My Worker"],
        /^catalogue config: --name My Worker: a Worker's name is up to 63 lowercase letters/,
      ],
      [[], /^catalogue config: config workers needs --out FOLDER/],
    ] as const) {
      const failure = await runConfigWorkers(...args);
      expect(failure.code, args.join(" ")).toBe(1);
      expect(failure.stderr).toMatch(message);
      expect(failure.stderr.trim().split("\n")).toHaveLength(1);
    }
    const missing = await catalogue(
      ["config", "workers", "--dir", path.join(fx.dir, "nothing"), "--out", out],
      { inherit: true },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nothing does not exist: run "catalogue build/);
    expect((await stat(path.join(out, "wrangler.json"))).mtimeMs).toBe(before.mtimeMs);
  });
});

describe("static assets limits", () => {
  const files = (count: number, size = 100) =>
    new Map<string, FileEntry>(Array.from({ length: count }, (_, i) => [`d/f${i}.json`, { size }]));

  it("warns past the free plan's 20,000 files (the manifest counts) and refuses past 100,000 or 25 MiB", () => {
    expect(checkAssetLimits(files(ASSET_LIMITS.files - 1))).toBeNull();
    expect(checkAssetLimits(files(ASSET_LIMITS.files))).toMatch(
      /^the build has 20001 files: .* --r2 BUCKET has no limit$/,
    );
    expect(() => checkAssetLimits(files(ASSET_LIMITS.paidFiles))).toThrow(
      /the build has 100001 files, over the 100000/,
    );
    const big = files(3);
    big.set("d/_api/export/export_excel.xlsx", { size: ASSET_LIMITS.bytes + 1 });
    expect(() => checkAssetLimits(big)).toThrow(
      /^d\/_api\/export\/export_excel\.xlsx: 26214401 bytes, over the 25 MiB/,
    );
    expect(checkAssetLimits(new Map([["a", { size: ASSET_LIMITS.bytes }]]))).toBeNull();
  });
});

describe("the Worker over an R2 bucket", () => {
  /** A bucket holding the build under `prefix`, counting reads, with objects that can be replaced. */
  function bucketOf(prefix: string) {
    const replaced = new Map<string, Buffer>();
    const reads: string[] = [];
    const bucket: R2Bucket = {
      async get(key) {
        reads.push(key);
        if (!key.startsWith(`${prefix}/`)) return null;
        const bytes =
          replaced.get(key) ??
          (await readFile(path.join(fx.dist, key.slice(prefix.length + 1))).catch(() => null));
        if (bytes === null) return null;
        return {
          body: new Blob([bytes]).stream(),
          size: bytes.length,
          httpEtag: `"${bytes.length}"`,
        };
      },
    };
    return { bucket, reads, replaced };
  }

  it("reads each file at PREFIX/<path>, decoded, with its length and ETag; a missing one is a 404", async () => {
    const { bucket, reads } = bucketOf("site/prod");
    const assets = r2Assets(bucket, "/site/prod/");
    const found = await assets.fetch(
      new Request("https://assets.invalid/domain-1.example/_api/list/plain/default/1.json"),
    );
    const bytes = await fx.read("domain-1.example/_api/list/plain/default/1.json");
    expect(found.status).toBe(200);
    expect(found.headers.get("content-length")).toBe(String(bytes.length));
    expect(found.headers.get("etag")).toBe(`"${bytes.length}"`);
    expect(Buffer.from(await found.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await assets.fetch(new Request("https://assets.invalid/a%20b/c.json"))).status).toBe(
      404,
    );
    expect(reads.at(-1)).toBe("site/prod/a b/c.json");
    await r2Assets(bucket).fetch(new Request("https://assets.invalid/x.json"));
    expect(reads.at(-1)).toBe("x.json");
  });

  it("reads build.json once a minute, so a publish that changes the domains is served within that delay", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { bucket, reads, replaced } = bucketOf("p");
    const env = { CATALOGUE_BUCKET: bucket, CATALOGUE_PREFIX: "p" };
    const get = async (host: string) =>
      (
        await cloudflare.fetch(new Request(`https://${host}${API}`, { headers: { host } }), env)
      ).text();
    const first = (await fx.read("domain-1.example/_api/list/plain/default/1.json")).toString();
    const third = (await fx.read("domain-3.example/_api/list/plain/default/1.json")).toString();
    expect(await get("domain-3.example")).toBe(third);
    expect(await get("domain-3.example")).toBe(third);
    expect(reads.filter((k) => k === "p/_catalogue/build.json")).toHaveLength(1);
    // A publish drops domain-3: its host falls back to the first domain once build.json is read again.
    const info = JSON.parse((await fx.read("_catalogue/build.json")).toString());
    replaced.set(
      "p/_catalogue/build.json",
      Buffer.from(
        JSON.stringify({
          ...info,
          domains: info.domains.filter((d: { domain: string }) => d.domain !== "domain-3.example"),
        }),
      ),
    );
    vi.setSystemTime(Date.now() + 59_000);
    expect(await get("domain-3.example")).toBe(third);
    vi.setSystemTime(Date.now() + 2_000);
    expect(await get("domain-3.example")).toBe(first);
    expect(reads.filter((k) => k === "p/_catalogue/build.json")).toHaveLength(2);
  });

  it("names the bindings it needs when it has neither", async () => {
    await expect(cloudflare.fetch(new Request(`https://x${API}`), {})).rejects.toThrow(
      /neither an ASSETS nor a CATALOGUE_BUCKET binding/,
    );
  });
});
