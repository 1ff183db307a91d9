import http from "node:http";
import { readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDev, type RunningDev } from "../../src/dev/dev.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";

/** GET through the preview with a Host header of its own (fetch cannot set one). */
function get(url: string, host: string): Promise<{ status: number; type: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { Host: host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            type: String(res.headers["content-type"]),
            body: Buffer.concat(chunks),
          }),
        );
      })
      .on("error", reject);
  });
}

let dir: string;
let cleanup: () => Promise<void>;
let dev: RunningDev;
let port: string;
let out: string;
const said: string[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-preview-"));
  // 25 works in uno.example: two pages of the API's list, so links.next is an absolute URL.
  const works = Array.from(
    { length: 25 },
    (_, i) => `${100 + i},Obra ${i},obra-${i},peliculas,1,${1900 + i},10,covers/a.png`,
  );
  const content = await writeContent(path.join(dir, "content"), {
    audiovisuals: `id,name,slug,audiovisual_type,director_id,year,duration,cover\n${works.join("\n")}\n`,
    availability: `audiovisual_id,domain,available_from\n${works.map((_, i) => `${100 + i},uno.example,2020-01-01`).join("\n")}\n100,dos.example,2020-01-01\n`,
  });
  out = path.join(dir, "dist");
  process.env.SOURCE_DATE_EPOCH = String(Date.UTC(2026, 10, 20) / 1000);
  dev = await startDev({
    build: { contentDir: content, outDir: out, cacheDir: path.join(dir, ".cache") },
    port: 0,
    host: "127.0.0.1",
    say: (line) => said.push(line),
  });
  port = new URL(dev.url).port;
}, 180_000);
afterAll(async () => {
  await dev?.close();
  delete process.env.SOURCE_DATE_EPOCH;
  await cleanup?.();
}, 60_000);

describe("the dev preview's links", () => {
  it("says each domain's preview address", () => {
    expect(said).toContain(`uno.example: http://uno.example.localhost:${port}/`);
    expect(said).toContain(`dos.example: http://dos.example.localhost:${port}/`);
  });

  it("rewrites each domain's absolute URLs in the API, pages, sitemaps and robots.txt to http://DOMAIN.localhost:PORT, choosing the domain by Host", async () => {
    const local = `http://uno.example.localhost:${port}`;
    const list = await get(
      `${dev.url}api/v1/videos/audiovisuals/`,
      `uno.example.localhost:${port}`,
    );
    const page = JSON.parse(list.body.toString()) as {
      count: number;
      links: { next: string };
      results: { cover: string }[];
    };
    expect(page.count).toBe(25);
    expect(page.links.next).toBe(`${local}/api/v1/videos/audiovisuals/?page=2`);
    expect(page.results[0]!.cover.startsWith(`${local}/media/`)).toBe(true);
    // Following the links stays on the preview: the next page and the cover answer.
    const next = new URL(page.links.next);
    expect((await get(`${dev.url}${next.pathname.slice(1)}${next.search}`, next.host)).status).toBe(
      200,
    );
    const cover = new URL(page.results[0]!.cover);
    const image = await get(`${dev.url}${cover.pathname.slice(1)}`, cover.host);
    expect([image.status, image.type]).toEqual([200, "image/jpeg"]);

    // The other domain by its Host: its own, shorter list, its own addresses.
    const other = JSON.parse(
      (
        await get(`${dev.url}api/v1/videos/audiovisuals/`, `dos.example.localhost:${port}`)
      ).body.toString(),
    ) as { count: number; results: { cover: string }[] };
    expect(other.count).toBe(1);
    expect(other.results[0]!.cover.startsWith(`http://dos.example.localhost:${port}/media/`)).toBe(
      true,
    );

    const home = (await get(dev.url, `uno.example.localhost:${port}`)).body.toString();
    expect(home).toContain(`<link rel="canonical" href="${local}/"`);
    expect(home).not.toContain("https://uno.example");
    const sitemap = (
      await get(`${dev.url}sitemap.xml`, `uno.example.localhost:${port}`)
    ).body.toString();
    expect(sitemap).toContain(`<loc>${local}/`);
    expect(sitemap).not.toContain("https://uno.example");
    const robots = (
      await get(`${dev.url}robots.txt`, `uno.example.localhost:${port}`)
    ).body.toString();
    expect(robots).toContain(`Sitemap: ${local}/sitemap`);
  }, 60_000);

  it("leaves the built files as they are", async () => {
    const root = await realpath(out);
    const texts = (await readdir(path.join(root, "uno.example"), { recursive: true })).filter((f) =>
      /\.(json|html|xml|txt)$/.test(f),
    );
    expect(texts.length).toBeGreaterThan(10);
    let absolute = 0;
    for (const file of texts) {
      const text = await readFile(path.join(root, "uno.example", file), "utf8");
      expect(text, file).not.toContain(".localhost");
      if (text.includes("https://uno.example/")) absolute++;
    }
    expect(absolute).toBeGreaterThan(5);
  });
});
