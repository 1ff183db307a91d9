import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINIMAL } from "../helpers/content.ts";
import { ask } from "../serve/http.ts";
import { cli } from "../reliability/helpers.ts";
import { startCatalogue } from "../support/command.ts";
import {
  domainsCsv,
  expectNoCrash,
  expectRefused,
  newProject,
  page,
  type Project,
} from "./project.ts";

/**
 * What a library's first week with the program runs into: several rows sharing one missing
 * cover, a logo with transparency, overrides that break the documented rules or misspell a
 * variable, --strict messages that say what does not happen, one missing file warned about once
 * per row, --domain checked after the whole content, a column put in the wrong file, `init` in
 * a folder where npx cannot find the package, and `serve` answering one domain to a browser.
 */

let project: Project;

beforeAll(async () => {
  project = await newProject();
}, 60_000);

afterAll(() => project?.cleanup());

async function restore(files: Partial<typeof MINIMAL> = {}) {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
  await project.write(
    Object.fromEntries(
      Object.entries({ ...MINIMAL, ...files }).map(([name, text]) => [`content/${name}.csv`, text]),
    ),
  );
}

const lines = (text: string) => text.split("\n").filter(Boolean);

describe("covers (item 5: a stand-in cover drawn per row)", () => {
  it("two works whose rows name the same missing cover get a stand-in each, not the first one's", async () => {
    await restore({
      audiovisuals: MINIMAL.audiovisuals
        .replaceAll("covers/a.png", "covers/missing.png")
        .replace("covers/b.png", "covers/missing.png"),
    });
    const built = await project.build("--no-site");
    expect(built.code, built.stderr).toBe(0);
    const cover = async (id: number) =>
      JSON.parse((await page(project, `uno.example/_api/detail/${id}.json`))!).cover as string;
    const covers = [await cover(10), await cover(11), await cover(12)];
    expect(new Set(covers).size, covers.join("\n")).toBe(3);
  });
});

describe("the logo (item 5: transparency flattened onto the paper colour, a square favicon)", () => {
  const PAPER = { r: 0xfb, g: 0xfa, b: 0xf7 };

  /** A file of the output named by a page's link (relative to the page, or an absolute URL of the domain). */
  const linked = (pageRel: string, href: string) =>
    href.startsWith("https://")
      ? path.join(project.dir, "dist", href.replace(/^https:\/\//, ""))
      : path.join(project.dir, "dist", path.dirname(pageRel), href);

  async function cornerAndSize(file: string) {
    const { data, info } = await sharp(file)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      r: data[0]!,
      g: data[1]!,
      b: data[2]!,
      alpha: data[3]!,
      width: info.width,
      height: info.height,
    };
  }

  it("a wide logo with a transparent background gives a square favicon and link previews on paper, not black", async () => {
    await restore({ domains: domainsCsv({ logo: "brand/logo.png" }, { logo: "brand/logo.png" }) });
    // 400×100, transparent but for a red band in the middle.
    await mkdir(path.join(project.dir, "content/brand"), { recursive: true });
    await sharp({
      create: { width: 400, height: 100, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: {
            create: {
              width: 200,
              height: 60,
              channels: 4,
              background: { r: 200, g: 30, b: 30, alpha: 1 },
            },
          },
          left: 100,
          top: 20,
        },
      ])
      .png()
      .toFile(path.join(project.dir, "content/brand/logo.png"));
    const built = await project.build();
    expect(built.code, built.stderr).toBe(0);
    const home = "uno.example/index.html";
    const icon = /<link rel="icon" href="([^"]+)"/.exec((await page(project, home))!)?.[1];
    expect(icon, "no favicon link").toBeDefined();
    const director = "uno.example/director/alice-guy/index.html";
    const preview = /<meta property="og:image" content="([^"]+)"/.exec(
      (await page(project, director))!,
    )?.[1];
    expect(preview, "no og:image on a director page without a photo").toBeDefined();
    const problems: string[] = [];
    for (const [what, file] of [
      ["favicon", linked(home, icon!)],
      ["og:image", linked(director, preview!)],
    ] as const) {
      const corner = await cornerAndSize(file);
      const transparent = corner.alpha < 16;
      const onPaper =
        Math.abs(corner.r - PAPER.r) + Math.abs(corner.g - PAPER.g) + Math.abs(corner.b - PAPER.b) <
        24;
      if (!transparent && !onPaper)
        problems.push(
          `${what} ${path.basename(file)}: corner rgb(${corner.r} ${corner.g} ${corner.b}) alpha ${corner.alpha}, not the paper colour`,
        );
      if (what === "favicon" && corner.width !== corner.height)
        problems.push(`favicon ${corner.width}×${corner.height}, not square`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe("override rules and typos (item 5: warnings at build, errors under --strict)", () => {
  const cases: [string, string, string, number | null, RegExp][] = [
    [
      "a work template without an <h1>",
      "_includes/work.liquid",
      "<p>{{ work.title }}</p>\n",
      null,
      /h1/i,
    ],
    [
      "a header without <header>",
      "_includes/header.liquid",
      '<div><a href="{{ site.home }}">{{ site.name }}</a></div>\n',
      null,
      /header/i,
    ],
    [
      "a footer without <footer>",
      "_includes/footer.liquid",
      "<div>Calle Mayor 1</div>\n",
      null,
      /footer/i,
    ],
    [
      "a misspelt variable ({{ site.nme }})",
      "_includes/footer.liquid",
      "<footer>\n<p>{{ site.nme }}</p>\n</footer>\n",
      2,
      /nme/,
    ],
  ];
  for (const [name, file, template, line, about] of cases) {
    it(`${name}: a warning naming the file from build, an error under --strict`, async () => {
      await restore();
      await project.write({ [`site/${file}`]: template });
      const built = await project.build();
      expect(built.code, built.stderr).toBe(0);
      const where = `site/${file}${line === null ? "(:\\d+)?" : `:${line}`}`;
      expect(
        lines(built.stderr).some(
          (l) => new RegExp(`^${where.replace(/\./g, "\\.")}: warning: `).test(l) && about.test(l),
        ),
        built.stderr,
      ).toBe(true);
      const before = await project.outputDigest();
      expectRefused(await project.build("--strict"), `site/${file}`, line, about);
      expect(await project.outputDigest()).toBe(before);
    }, 60_000);
  }
});

describe("messages (item 5)", () => {
  it("under --strict, no message says a column is ignored or a stand-in is used: nothing is written", async () => {
    await restore({
      directors: MINIMAL.directors
        .replace("description_en\n", "description_en,colour\n")
        .replace("French illusionist.\n", "French illusionist.,red\n"),
      audiovisuals: MINIMAL.audiovisuals.replace("covers/b.png", "covers/missing.png"),
    });
    const built = await project.build("--no-site", "--strict");
    expect(built.code, built.stderr).toBe(1);
    const said = lines(built.stderr).filter((l) => /colour|missing\.png/.test(l));
    expect(said.length, built.stderr).toBeGreaterThanOrEqual(2);
    expect(
      said.filter((l) => /ignored|\bis used\b|will be used|is drawn|are drawn/i.test(l)),
      built.stderr,
    ).toEqual([]);
  });

  it("one missing cover used by 17 rows is one warning naming the lines that use it", async () => {
    const rows = Array.from(
      { length: 17 },
      (_, i) => `${20 + i},Obra ${i},obra-${i},peliculas,1,1950,90,covers/missing.png`,
    );
    await restore({
      audiovisuals:
        ["id,name,slug,audiovisual_type,director_id,year,duration,cover", ...rows].join("\n") +
        "\n",
      availability:
        "audiovisual_id,domain,available_from,available_until\n20,uno.example,2020-01-01,\n",
    });
    const checked = await project.validate();
    expect(checked.code, checked.stderr).toBe(0);
    const warnings = lines(checked.stderr).filter((l) => l.includes("covers/missing.png"));
    expect(warnings, checked.stderr).toHaveLength(1);
    // The rows are on lines 2 to 18: the warning names them (as a list or a range).
    expect(warnings[0]).toMatch(/\b18\b/);
  });

  it("--domain naming no domain is reported first, before any warning of the content", async () => {
    await restore({
      directors: MINIMAL.directors.replace("description_en\n", "description_en,colour\n"),
    });
    const built = await project.build("--no-site", "--domain", "nosuch.example");
    expectNoCrash(built);
    expect(built.code).toBe(1);
    expect(lines(built.stderr)[0], built.stderr).toMatch(/--domain.*nosuch\.example/);
    expect(built.stderr).not.toMatch(/directors\.csv/);
  });

  const misplaced: [string, string, string][] = [
    ["watch_url", "audiovisuals", "domains.csv"],
    ["available_from", "audiovisuals", "availability.csv"],
  ];
  for (const [column, file, home] of misplaced) {
    it(`a ${column} column in ${file}.csv is named as belonging in ${home}`, async () => {
      const [header, ...rows] = MINIMAL[file as keyof typeof MINIMAL].trimEnd().split("\n");
      await restore({
        [file]: [`${header},${column}`, ...rows.map((r) => `${r},`)].join("\n") + "\n",
      });
      const checked = await project.validate();
      expectNoCrash(checked);
      const said = lines(checked.stderr).filter(
        (l) => l.startsWith(`content/${file}.csv:1: `) && l.includes(column),
      );
      expect(said, checked.stderr).not.toEqual([]);
      expect(
        said.some((l) => l.includes(home)),
        checked.stderr,
      ).toBe(true);
    });
  }
});

describe("init (item 5: telling how to install the package where npx cannot find it)", () => {
  it("init DIR in a folder without the package writes its package.json or says how to install it", async () => {
    const result = await cli(["init", "library"], { cwd: project.dir });
    expect(result.code, result.stderr).toBe(0);
    const manifest = path.join(project.dir, "library/package.json");
    const written =
      existsSync(manifest) && /"audiovisual-catalogue"/.test(await readFile(manifest, "utf8"));
    const told = /npm (install|i|add)\b[^\n]*audiovisual-catalogue/.test(
      result.stdout + result.stderr,
    );
    expect(
      written || told,
      `neither library/package.json nor an install command:\n${result.stdout}${result.stderr}`,
    ).toBe(true);
  });
});

describe("serve (item 5: DOMAIN.localhost answered as dev does, each domain's address printed)", () => {
  it("answers dos.example.localhost with dos.example's API and prints both domains' addresses", async () => {
    await restore();
    const built = await project.build("--no-site");
    expect(built.code, built.stderr).toBe(0);
    const serve = startCatalogue(["serve", "--dir", "dist", "--port", "0"], {
      cwd: project.dir,
      inherit: true,
    });
    try {
      await serve.waitFor(/:(\d+)/, { timeoutMs: 20_000 });
      // Give the start-up lines a moment to arrive whole.
      await new Promise((r) => setTimeout(r, 500));
      const stdout = serve.stdout();
      const port = Number(
        /127\.0\.0\.1:(\d+)|localhost:(\d+)/.exec(stdout)?.slice(1).find(Boolean),
      );
      expect(port, stdout).toBeGreaterThan(0);
      expect(stdout).toContain(`http://uno.example.localhost:${port}`);
      expect(stdout).toContain(`http://dos.example.localhost:${port}`);
      const reply = await ask(port, {
        host: `dos.example.localhost:${port}`,
        path: "/api/v1/videos/audiovisuals/",
      });
      expect(reply.status).toBe(200);
      expect(reply.body.toString()).toBe(
        (await page(project, "dos.example/_api/list/plain/default/1.json"))!,
      );
    } finally {
      await serve.stop("SIGTERM");
    }
  }, 60_000);
});
