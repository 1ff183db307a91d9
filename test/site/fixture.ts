import { appendFile, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { BuildSummary } from "../../src/pipeline/pipeline.ts";
import { buildFixture, generatedContent } from "../helpers/catalogue.ts";
import { asyncHandler } from "../support/async-handler.ts";

/** A title that would run as a script if any page forgot to escape it. */
export const SCRIPT_TITLE = `<script>alert("x")</script> & "quotes"`;
export const SCRIPT_ID = 900001;

/**
 * A generated catalogue (60 works, so listings have several pages) with two domains: the first
 * in Spanish at the host root, the second in English under the base path /cataleg, plus a work
 * whose title is markup.
 */
export async function siteContent(dir: string): Promise<string> {
  const content = await generatedContent(dir, { works: 60, domains: 2 });
  const domains = path.join(content, "domains.csv");
  const text = await readFile(domains, "utf8");
  await writeFile(
    domains,
    text.replace(
      "domain-2.example,Red de bibliotecas 2,,",
      "domain-2.example,Red de bibliotecas 2,https://domain-2.example/cataleg,",
    ),
  );
  await appendFile(
    path.join(content, "audiovisuals.csv"),
    `${SCRIPT_ID},"${SCRIPT_TITLE.replace(/"/g, '""')}",script-title,peliculas,1,1950,90,covers/cover-0.png,1\n`,
  );
  await appendFile(
    path.join(content, "availability.csv"),
    `${SCRIPT_ID},domain-1.example,2020-01-01,\n${SCRIPT_ID},domain-2.example,2020-01-01,\n`,
  );
  return content;
}

export const buildSite = (content: string, out: string) =>
  buildFixture(content, out, { site: true });

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
};

/**
 * A minimal static server for one host folder of the output (`<out>/<domain>/`): folders answer
 * their index.html, unknown paths the site's 404 page with status 404. Enough for the pages,
 * their media and the browse index (the real server is tested with the serve module).
 */
export async function serveFolder(
  root: string,
  basePath = "",
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(
    asyncHandler(async (request, response) => {
      const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname);
      const file = path.join(root, pathname.endsWith("/") ? `${pathname}index.html` : pathname);
      try {
        if (!file.startsWith(root + path.sep)) throw new Error("outside");
        const body = await readFile(file);
        response.writeHead(200, {
          "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
        });
        response.end(body);
      } catch {
        const body = await readFile(path.join(root, basePath.slice(1), "404.html")).catch(
          () => "not found",
        );
        response.writeHead(404, { "content-type": TYPES[".html"] });
        response.end(body);
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A site build and what its site stage reported: pages planned and pages given to Eleventy. */
export interface CountedBuild {
  summary: BuildSummary;
  pages: number;
  toRender: number;
}

/** Builds the site like buildSite, reading the counts from the stages the build reports. */
export async function buildSiteCounted(content: string, out: string): Promise<CountedBuild> {
  const stages: string[] = [];
  const summary = await buildFixture(content, out, {
    site: true,
    reporter: { stage: (name) => void stages.push(name), warning() {} },
  });
  const render = stages
    .map((s) => /^rendered (\d+) of (\d+) HTML pages \(Eleventy [\d.]+ s\)$/.exec(s))
    .find((m) => m !== null);
  if (!render) throw new Error(`the site stages are missing: ${stages.join("; ")}`);
  return {
    summary,
    pages: Number(render[2]),
    toRender: Number(render[1]),
  };
}

/** Gives directors a photo (a cover image) that they may or may not show (`show_img`). */
export async function directorPhotos(
  content: string,
  shown: Record<number, boolean>,
): Promise<void> {
  const file = path.join(content, "directors.csv");
  const lines = (await readFile(file, "utf8")).split("\n");
  for (const [id, show] of Object.entries(shown)) {
    const at = lines.findIndex((l) => l.startsWith(`${id},`));
    const edited = lines[at]!.replace(
      /^(\d+,[^,]*,[^,]*),[^,]*,(?:true|false)?,/,
      `$1,covers/cover-${id}.png,${show},`,
    );
    if (edited === lines[at]) throw new Error(`director ${id}: unexpected row ${lines[at]}`);
    lines[at] = edited;
  }
  await writeFile(file, lines.join("\n"));
}
