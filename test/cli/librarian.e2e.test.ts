import { readdir, readFile, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashFile } from "../../src/util/hash.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { MINIMAL, writeContent } from "../helpers/content.ts";
import { catalogue } from "../support/command.ts";

/** Runs the real command line in `cwd` with this process's environment. */
const inFolder = (args: string[], cwd: string) => catalogue(args, { cwd, inherit: true });

async function snapshot(root: string): Promise<Record<string, string>> {
  const result: Record<string, string> = {};
  const real = await realpath(root);
  for (const entry of await readdir(real, { recursive: true, withFileTypes: true })) {
    if (entry.isFile())
      result[path.relative(real, path.join(entry.parentPath, entry.name))] = (
        await hashFile(path.join(entry.parentPath, entry.name))
      ).md5;
  }
  return result;
}

/** A CSV as Spanish-locale Excel saves it as "CSV UTF-8": BOM, semicolons, CRLF, day-first dates, VERDADERO/FALSO. */
function spanishExcel(csv: string): string {
  const rows = csv
    .trimEnd()
    .split("\n")
    .map((line) =>
      line
        .split(",")
        .map((cell) =>
          cell
            .replace(/^(\d{4})-(\d{2})-(\d{2})$/, "$3/$2/$1")
            .replace(/^true$/, "VERDADERO")
            .replace(/^false$/, "FALSO"),
        )
        .join(";"),
    );
  return `\uFEFF${rows.join("\r\n")}\r\n`;
}

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

describe("the files librarians keep", () => {
  it("a Spanish-Excel CSV (semicolons, BOM, CRLF, DD/MM/YYYY, VERDADERO) builds to the same bytes as the comma version", async () => {
    const comma = await writeContent(path.join(dir, "comma"));
    const excel = await writeContent(path.join(dir, "excel"), {
      domains: spanishExcel(MINIMAL.domains),
      directors: spanishExcel(MINIMAL.directors),
      audiovisuals: spanishExcel(MINIMAL.audiovisuals),
      availability: spanishExcel(MINIMAL.availability),
    });
    expect(await readFile(path.join(excel, "availability.csv"), "utf8")).toContain(
      ";01/01/2020;\r\n",
    );
    expect(await readFile(path.join(excel, "directors.csv"), "utf8")).toContain(";VERDADERO;");
    const cache = path.join(dir, ".cache");
    const a = await inFolder(
      [
        "build",
        "--content",
        comma,
        "--out",
        "out-comma",
        "--date",
        "2026-11-20",
        "--no-site",
        "--cache",
        cache,
      ],
      dir,
    );
    const b = await inFolder(
      [
        "build",
        "--content",
        excel,
        "--out",
        "out-excel",
        "--date",
        "2026-11-20",
        "--no-site",
        "--cache",
        cache,
      ],
      dir,
    );
    expect([a.code, a.stderr.includes("warning")]).toEqual([0, false]);
    expect([b.code, b.stderr.includes("warning")]).toEqual([0, false]);
    // The build's own records key it by the input files' bytes, which differ; not published (publish/source.ts).
    const published = async (out: string) => {
      const {
        "_catalogue/inputs.json": inputs,
        "_catalogue/files.tsv": list,
        ...rest
      } = await snapshot(path.join(dir, out));
      expect([inputs, list]).not.toContain(undefined);
      return rest;
    };
    const built = await published("out-comma");
    expect(Object.keys(built).length).toBeGreaterThan(20);
    expect(await published("out-excel")).toEqual(built);
  }, 60_000);

  it("refuses month-first dates and a Windows-1252 file with messages that say what to do", async () => {
    const content = await writeContent(path.join(dir, "us"), {
      availability: MINIMAL.availability.replace("2026-11-10,2026-12-31", "11/10/2026,12/31/2026"),
    });
    await writeFile(
      path.join(content, "domains.csv"),
      Buffer.from(MINIMAL.domains.replace("Uno", "Uno Peñíscola"), "latin1"),
    );
    const result = await inFolder(["validate", "--content", content], dir);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(content, "content").split("\n")).toEqual([
      'content/availability.csv:3: available_until: expected a date YYYY-MM-DD or day first DD/MM/YYYY, got "12/31/2026", which is month first: write 31/12/2026 or 2026-12-31',
      'content/domains.csv:2: not UTF-8 ("Peñíscola" if read as Windows-1252): save it as UTF-8: in Excel, Save As "CSV UTF-8 (Comma delimited)"; in LibreOffice, Save As "Text CSV" with "Edit filter settings" and Character set "Unicode (UTF-8)"',
      "2 problem(s) found",
      "",
    ]);
  });
});

describe("suggestions, warnings and --strict", () => {
  it("names the column a header typo meant on one line, and the command or flag a typo meant", async () => {
    const content = await writeContent(path.join(dir, "typo"), {
      audiovisuals: MINIMAL.audiovisuals.replace("id,name,", "id,nmae,"),
    });
    const result = await inFolder(["validate", "--content", content], dir);
    expect(result.code).toBe(1);
    expect(result.stderr.replaceAll(content, "content")).toBe(
      'content/audiovisuals.csv:1: nmae: unknown column; did you mean "name"?\n1 problem(s) found\n',
    );
    const command = await inFolder(["biuld"], dir);
    expect([command.code, command.stderr.split("\n")[0]]).toEqual([
      1,
      'catalogue: unknown command "biuld"; did you mean "build"?',
    ]);
    const flag = await inFolder(["publish", "--tos", "x.zip"], dir);
    expect([flag.code, flag.stderr.split("\n")[0]]).toEqual([
      1,
      "catalogue publish: unknown option --tos; did you mean --to?",
    ]);
    const server = await inFolder(["config", "ngnix"], dir);
    expect([server.code, server.stderr]).toEqual([
      1,
      expect.stringContaining('got "ngnix" (did you mean "nginx"?)'),
    ]);
    // Nothing close: no suggestion.
    expect((await inFolder(["frobnicate"], dir)).stderr.split("\n")[0]).toBe(
      'catalogue: unknown command "frobnicate"',
    );
  });

  it("a missing cover is a warning naming where it looked and the file in another case; the work gets a drawn cover; --strict refuses", async () => {
    const content = await writeContent(path.join(dir, "missing"), {}, [
      "covers/A.PNG",
      "covers/b.png",
      "photos/melies.png",
    ]);
    const cache = path.join(dir, ".cache-missing");
    const args = [
      "build",
      "--content",
      content,
      "--out",
      "out-missing",
      "--date",
      "2026-11-20",
      "--no-site",
      "--cache",
      cache,
    ];
    const strict = await inFolder([...args, "--strict"], dir);
    expect(strict.code).toBe(1);
    // One problem for the path the two rows share, naming both; nothing said of a stand-in.
    expect(strict.stderr.replaceAll(content, "content").split("\n")).toEqual([
      'content/audiovisuals.csv:2: cover: image file not found: "covers/a.png" (content/covers/a.png; "covers/A.PNG" exists, in another case), named on lines 2, 4',
      "1 problem(s) found; nothing was written",
      "",
    ]);
    const built = await inFolder(args, dir);
    expect(built.code).toBe(0);
    expect(built.stderr.replaceAll(content, "content").split("\n").slice(0, 1)).toEqual([
      'content/audiovisuals.csv:2: warning: cover: image file not found: "covers/a.png" (content/covers/a.png; "covers/A.PNG" exists, in another case), named on lines 2, 4; a cover drawn from each row stands in',
    ]);
    // The API's cover points at a real file: the drawn one, processed as any cover.
    const detail = JSON.parse(
      await readFile(path.join(dir, "out-missing/uno.example/_api/detail/10.json"), "utf8"),
    ) as { cover: string };
    const media = path.join(
      dir,
      "out-missing/uno.example",
      new URL(detail.cover).pathname.replace(/^\/+/, ""),
    );
    const sharp = (await import("sharp")).default;
    expect(await sharp(media).metadata()).toMatchObject({
      format: "jpeg",
      width: 400,
      height: 600,
    });
    const validate = await inFolder(["validate", "--content", content, "--strict"], dir);
    expect([validate.code, validate.stderr.split("\n").at(-2)]).toEqual([1, "1 problem(s) found"]);
    const lenient = await inFolder(["validate", "--content", content], dir);
    expect([lenient.code, lenient.stdout]).toEqual([
      0,
      "content is valid: 2 domains, 2 directors, 3 audiovisuals, 2 images, 2 stand-in(s) for missing images (the build draws them)\n",
    ]);
  }, 60_000);
});

describe("the first minutes", () => {
  it("every --help has an example, and publish's names the credentials it reads", async () => {
    const { commands } = await import("../../src/cli/command-list.ts");
    expect((await inFolder(["--help"], dir)).stdout).toMatch(
      /\nExample \([^)]*\):\n {2}npx catalogue /,
    );
    for (const entry of commands) {
      const help = await inFolder([entry.name, "--help"], dir);
      expect(help.stdout, entry.name).toMatch(/\nExamples?( \([^)]*\))?:\n {2}npx catalogue /);
    }
    const publish = (await inFolder(["publish", "--help"], dir)).stdout;
    for (const name of [
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "AWS_PROFILE",
      "AWS_REGION",
      "AWS_DEFAULT_REGION",
      "CATALOGUE_S3_TIMEOUT",
    ]) {
      expect(publish).toContain(name);
    }
  });

  it("refuses an archive extension the publisher does not write, and keeps folders named like hosts", async () => {
    const out = await writeContent(path.join(dir, "to-built"));
    for (const to of ["site.rar", "site.7z", "site.tar", "site.tar.xz", "site.bz2"]) {
      const result = await inFolder(["publish", "--dir", out, "--to", path.join(dir, to)], dir);
      expect(result.code, to).toBe(1);
      expect(result.stderr, to).toMatch(
        /catalogue writes \.zip and \.tar\.gz archives, not \.[\w.]+: use .*site\.zip or .*site\.tar\.gz/,
      );
    }
    // A folder named like a host is a folder target (here refused later, for another reason: no build in --dir).
    const host = await inFolder(
      ["publish", "--dir", path.join(dir, "nothing"), "--to", path.join(dir, "www.example.org")],
      dir,
    );
    expect(host.stderr).not.toContain("archives");
  });
});
