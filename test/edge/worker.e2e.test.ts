import { MANIFEST_PATH, parseManifest } from "../../src/output/tree.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/edge/worker.ts";
import type { BuildInfo } from "../../src/output/build-info.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { folderAssets, startEdge } from "./assets.ts";

/**
 * The edge function run in Node against a built output, with the cases of docs/interface.md#routing.
 * Expected bodies are the build's own files.
 */

const API = "/api/v1/videos/audiovisuals/";
const ALLOW = "GET, HEAD, OPTIONS";
let root: { dir: string; cleanup: () => Promise<void> };
let dist: string;
let info: BuildInfo;
let env: { ASSETS: ReturnType<typeof folderAssets> };

beforeAll(async () => {
  root = await tempDir("catalogue-edge-");
  const content = await generatedContent(root.dir, { works: 60, domains: 2 });
  dist = path.join(root.dir, "dist");
  await buildFixture(content, dist);
  info = JSON.parse(await readFile(path.join(dist, "_catalogue/build.json"), "utf8"));
  env = { ASSETS: folderAssets(dist) };
});
afterAll(() => root?.cleanup());

const file = (rel: string) => readFile(path.join(dist, rel), "utf8");
const call = (host: string, target: string, method = "GET") =>
  worker.fetch(new Request(`http://${host}${target}`, { method, headers: { host } }), env);

async function expectApi(response: Response, status: number, body: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  expect(response.headers.get("vary")?.split(/\s*,\s*/)).toContain("Accept");
  expect(response.headers.get("allow")).toBe(ALLOW);
  expect(await response.text()).toBe(body);
}

describe("edge function", () => {
  it("maps every format, ordering and page onto its file, parameters in any order", async () => {
    for (const d of info.domains) {
      for (const [format, formatDir] of [
        [null, "plain"],
        ["api", "api"],
        ["json", "json"],
      ] as const) {
        for (const [ordering, orderingDir] of [
          [null, "default"],
          ["name", "name"],
          ["-name", "-name"],
          ["year", "year"],
          ["-year", "-year"],
        ] as const) {
          for (const page of [null, "2", "last"]) {
            const params = [
              format && `format=${format}`,
              page && `page=${page}`,
              ordering && `ordering=${ordering}`,
            ].filter(Boolean);
            const target = `${API}${params.length ? `?${params.join("&")}` : ""}`;
            const expected = await file(
              `${d.domain}/_api/list/${formatDir}/${orderingDir}/${page ?? 1}.json`,
            );
            await expectApi(await call(d.domain, target), 200, expected);
          }
        }
      }
    }
  });

  it("answers invalid pages and unknown formats with the API's 404 bodies", async () => {
    const d = info.domains[0]!;
    const invalid = await file(`${d.domain}/_api/error/invalid-page.json`);
    for (const page of ["0", "abc", "-1", String(d.total_pages + 1), ""])
      await expectApi(await call(d.domain, `${API}?page=${page}`), 404, invalid);
    await expectApi(
      await call(d.domain, `${API}?format=xml&page=abc`),
      404,
      await file(`${d.domain}/_api/error/not-found.json`),
    );
  });

  it("treats an unknown ordering as the default one, ignoring other parameters", async () => {
    const d = info.domains[1]!;
    await expectApi(
      await call(d.domain, `${API}?ordering=title&utm=x`),
      200,
      await file(`${d.domain}/_api/list/plain/default/1.json`),
    );
  });

  it("retrieves listed works and 404s the others", async () => {
    const d = info.domains[0]!;
    const files = [...parseManifest(await file(MANIFEST_PATH)).keys()];
    const listed = files
      .map((rel) => new RegExp(`^${d.domain}/_api/detail/(\\d+)\\.json$`).exec(rel)?.[1])
      .filter(Boolean) as string[];
    await expectApi(
      await call(d.domain, `${API}${listed[0]}/`),
      200,
      await file(`${d.domain}/_api/detail/${listed[0]}.json`),
    );
    const unlisted = Array.from({ length: 100 }, (_, i) => String(i + 1)).find(
      (id) => !listed.includes(id),
    )!;
    await expectApi(
      await call(d.domain, `${API}${unlisted}/`),
      404,
      await file(`${d.domain}/_api/error/not-found.json`),
    );
  });

  it("serves the exports as downloads", async () => {
    const d = info.domains[0]!;
    const response = await call(d.domain, `${API}export_up_movies/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="${d.exports.export_up_movies}"`,
    );
    expect(
      Buffer.from(await response.arrayBuffer()).equals(
        await readFile(path.join(dist, `${d.domain}/_api/export/export_up_movies.xlsx`)),
      ),
    ).toBe(true);
  });

  it("redirects paths without their slash, keeping the query", async () => {
    const d = info.domains[0]!;
    for (const [from, to] of [
      [`${API.slice(0, -1)}?page=2`, `${API}?page=2`],
      [`${API}12?format=json`, `${API}12/?format=json`],
      [`${API}export_excel`, `${API}export_excel/`],
    ]) {
      const response = await call(d.domain, from!);
      expect(response.status, from).toBe(301);
      expect(response.headers.get("location")).toBe(to);
    }
  });

  it("answers HEAD without a body, OPTIONS with Allow, and refuses writes with 405", async () => {
    const d = info.domains[0]!;
    const head = await call(d.domain, API, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("application/json");
    expect(await head.text()).toBe("");
    const options = await call(d.domain, API, "OPTIONS");
    expect(options.status).toBe(200);
    expect(options.headers.get("allow")).toBe(ALLOW);
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const refused = await call(d.domain, API, method);
      expect(refused.status).toBe(405);
      expect(refused.headers.get("allow")).toBe(ALLOW);
      expect(await refused.text()).toBe(await file(`${d.domain}/_api/error/method-${method}.json`));
    }
  });

  it("gives unknown hosts the first domain and hides the raw files", async () => {
    await expectApi(
      await call("unknown.example", API),
      200,
      await file(`${info.domains[0]!.domain}/_api/list/plain/default/1.json`),
    );
    expect((await call(info.domains[0]!.domain, "/_api/list/plain/default/1.json")).status).toBe(
      404,
    );
    expect((await call(info.domains[0]!.domain, "/_catalogue/build.json")).status).toBe(404);
  });

  it("serves media with a long, immutable cache", async () => {
    const d = info.domains[0]!;
    const files = [...parseManifest(await file(MANIFEST_PATH)).keys()];
    const media = files.find((rel) => rel.startsWith(`${d.media_folder}/`))!;
    const response = await call(d.domain, `/${media.slice(d.domain.length + 1)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("runs behind HTTP (for the servers' conformance suite) with the raw query intact", async () => {
    const edge = await startEdge(dist);
    try {
      const d = info.domains[0]!;
      const response = await fetch(`http://127.0.0.1:${edge.port}${API}?page=last&format=api`, {
        headers: { host: d.domain },
      });
      await expectApi(response, 200, await file(`${d.domain}/_api/list/api/default/last.json`));
    } finally {
      await edge.stop();
    }
  });
});
