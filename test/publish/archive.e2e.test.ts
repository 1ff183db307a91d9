import { execFileSync } from "node:child_process";
import { mkdir, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { md5 } from "../../src/util/hash.ts";
import { ArchiveFile } from "../../src/publish/offline/archive.ts";
import { publish } from "../../src/publish/publish.ts";
import { startServer } from "../../src/serve/server.ts";
import { buildFixture, generatedContent, tempDir } from "../helpers/catalogue.ts";
import { makeEditions, readFiles, type Editions } from "./fixtures.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;

beforeAll(async () => {
  root = await tempDir("catalogue-archive-");
  editions = await makeEditions(root.dir, 30);
});
afterAll(() => root?.cleanup());

const file = (name: string) => path.join(root.dir, name);

async function unpack(archive: string): Promise<string> {
  const dir = `${archive}.d`;
  await mkdir(dir, { recursive: true });
  if (archive.endsWith(".zip")) execFileSync("unzip", ["-q", "-o", archive, "-d", dir]);
  else execFileSync("tar", ["-xzf", archive, "-C", dir]);
  return dir;
}

describe("archive target", () => {
  for (const format of ["zip", "tar.gz"] as const) {
    it(`writes the same ${format} bytes for the same build, whatever the time zone`, async () => {
      const a = file(`same-a.${format}`);
      const b = file(`same-b.${format}`);
      const zone = process.env.TZ;
      try {
        process.env.TZ = "UTC";
        await publish({ dir: editions.before, target: new ArchiveFile(a, format) });
        process.env.TZ = "Pacific/Kiritimati";
        await publish({ dir: editions.before, target: new ArchiveFile(b, format) });
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
      expect(md5(await readFile(a))).toBe(md5(await readFile(b)));
    });
  }

  it("lists entries sorted, dated the build day, mode 0644, owner 0", () => {
    const archive = file("same-a.tar.gz");
    const lines = execFileSync("tar", ["-tvzf", archive], { env: { ...process.env, TZ: "UTC" } })
      .toString()
      .trim()
      .split("\n");
    const names = lines.map((l) => l.split(/\s+/).at(-1)!);
    expect(names).toEqual([...names].sort());
    for (const line of lines) expect(line).toMatch(/^-rw-r--r-- 0\/0 +\d+ 2026-11-20 00:00 /);
    const zipLines = execFileSync("zipinfo", ["-T", file("same-a.zip")])
      .toString()
      .split("\n")
      .filter((l) => l.startsWith("-rw"));
    expect(zipLines.length).toBe(names.length);
    for (const line of zipLines) expect(line).toMatch(/ 20261120\.000000 /);
  });

  it("--domain holds one domain, its media and a build description of that domain only", async () => {
    const archive = file("one.zip");
    await publish({
      dir: editions.before,
      target: new ArchiveFile(archive, "zip"),
      domains: ["domain-2.example"],
    });
    const dir = await unpack(archive);
    const list = await readFiles(dir);
    const all = await readFiles(editions.before);
    // And the root page an offline copy opens at.
    const expected = [
      ...Object.keys(all).filter((rel) => rel.startsWith("domain-2.example/")),
      "index.html",
    ];
    expect(Object.keys(list).filter((rel) => rel !== "_catalogue/build.json")).toEqual(expected);
    const info = JSON.parse(await readFile(path.join(dir, "_catalogue/build.json"), "utf8"));
    expect(info.domains.map((d: { domain: string }) => d.domain)).toEqual(["domain-2.example"]);
    // Its own file list is true to its files.
    for (const [rel, entry] of Object.entries(list))
      expect(md5(await readFile(path.join(dir, rel))), rel).toBe(entry.md5);
  });

  it("an unknown --domain names the domains there are", async () => {
    await expect(
      publish({
        dir: editions.before,
        target: new ArchiveFile(file("x.zip"), "zip"),
        domains: ["nope.example"],
      }),
    ).rejects.toThrow(
      "--domain: the build has no domain nope.example; its domains are: domain-1.example, domain-2.example",
    );
  });

  it("unpacked, catalogue serve serves it", async () => {
    const archive = file("serve.tar.gz");
    await publish({
      dir: editions.before,
      target: new ArchiveFile(archive, "tar.gz"),
      domains: ["domain-1.example"],
    });
    const dir = await unpack(archive);
    const server = await startServer({ dir, port: 0, host: "127.0.0.1" });
    try {
      const url = new URL("/api/v1/videos/audiovisuals/?page=last&format=json", server.url);
      const reply = await fetch(url, { headers: { host: "domain-1.example" } });
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toBe("application/json");
      const info = JSON.parse(await readFile(path.join(dir, "_catalogue/build.json"), "utf8"));
      const last = await readFile(
        path.join(
          dir,
          `domain-1.example/_api/list/json/default/${info.domains[0].total_pages}.json`,
        ),
        "utf8",
      );
      expect(await reply.text()).toBe(last);
      const detail = await fetch(
        new URL(`/api/v1/videos/audiovisuals/${editions.retitled.id}/`, server.url),
      );
      expect(detail.status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("with the HTML catalogue, is self-contained: every page's links and images are inside the copy", async () => {
    const content = await generatedContent(path.join(root.dir, "site"), { works: 25, domains: 2 });
    const out = path.join(root.dir, "site", "out");
    await buildFixture(content, out, { site: true });
    const archive = file("site.zip");
    await publish({
      dir: out,
      target: new ArchiveFile(archive, "zip"),
      domains: ["domain-1.example"],
    });
    const dir = await unpack(archive);
    const exists = (abs: string) =>
      stat(abs).then(
        (s) =>
          s.isDirectory()
            ? stat(path.join(abs, "index.html")).then(
                () => true,
                () => false,
              )
            : true,
        () => false,
      );
    const pages = (await readdir(path.join(dir, "domain-1.example"), { recursive: true })).filter(
      (rel) => rel.endsWith(".html") && rel !== "404.html",
    );
    expect(pages.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const page of pages) {
      const html = await readFile(path.join(dir, "domain-1.example", page), "utf8");
      // A page's query (a browse page's link to the filters) is read by its script, not a file.
      for (const [, link] of html.matchAll(/(?:href|src)="([^"#?]+)[^"]*"/g)) {
        // Absolute URLs name the public site (metadata); every other link, the API's included, is a file of the copy.
        if (/^[a-z]+:/.test(link!)) continue;
        if (link!.startsWith("/")) missing.push(`${page}: ${link} is not relative`);
        else if (!(await exists(path.join(dir, "domain-1.example", path.dirname(page), link!))))
          missing.push(`${page}: ${link}`);
      }
    }
    expect(missing).toEqual([]);
    // Rewritten pages, search index and root page included, the same build gives the same bytes.
    const again = file("site-again.zip");
    await publish({
      dir: out,
      target: new ArchiveFile(again, "zip"),
      domains: ["domain-1.example"],
    });
    expect(md5(await readFile(again))).toBe(md5(await readFile(archive)));
  });
});
