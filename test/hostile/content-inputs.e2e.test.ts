import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { MINIMAL } from "../helpers/content.ts";
import { requireTool } from "../support/requires.ts";
import { BUILD, builtProject, expectNoCrash, expectRefused } from "./project.ts";

/**
 * Content and text files as people and programs leave them: encodings a spreadsheet can save,
 * headers that fool the separator guess, characters XML forbids, a CSV that is a link out of the
 * content folder, interface texts with placeholders of their own. Each is refused at its line
 * with what to do (validate and build alike, the previous output kept), or, for characters XML
 * forbids, dropped where XML cannot hold them.
 */

const run = promisify(execFile);
const project = builtProject();

async function restore() {
  await rm(path.join(project.dir, "site"), { recursive: true, force: true });
  await project.write(
    Object.fromEntries(
      Object.entries(MINIMAL).map(([name, text]) => [`content/${name}.csv`, text]),
    ),
  );
}

/** validate and build both refuse (the output kept); returns the build's line. */
async function expectBothRefuse(
  file: string,
  line: number | null,
  about?: RegExp,
  flags: string[] = ["--no-site"],
) {
  expectRefused(await project.validate(), file, line, about);
  const before = await project.outputDigest();
  const built = await project.build(...flags);
  expectRefused(built, file, line, about);
  expect(await project.outputDigest()).toBe(before);
}

describe("encodings (item 4: UTF-32 named as an encoding to re-save)", () => {
  /** The text as UTF-32 with its byte order mark, as an editor saves it. */
  const utf32 = (text: string, bigEndian: boolean) => {
    const codes = [0xfeff, ...[...text].map((char) => char.codePointAt(0)!)];
    const out = Buffer.alloc(codes.length * 4);
    codes.forEach((code, i) =>
      bigEndian ? out.writeUInt32BE(code, i * 4) : out.writeUInt32LE(code, i * 4),
    );
    return out;
  };
  for (const bigEndian of [false, true]) {
    it(`directors.csv saved as UTF-32 ${bigEndian ? "BE" : "LE"} with its byte order mark is refused naming UTF-32`, async () => {
      await restore();
      await project.write({ "content/directors.csv": utf32(MINIMAL.directors, bigEndian) });
      await expectBothRefuse("content/directors.csv", null, /UTF-32/i);
    });
  }
});

describe("the separator guess (item 4: a guess that fails is reported as such)", () => {
  it("a comma file whose header has more semicolons than commas is read right, or refused saying why it was read as ;-separated", async () => {
    await restore();
    const [header, ...rows] = MINIMAL.directors.trimEnd().split("\n");
    const csv =
      [
        `${header},"notes; internal; keep; out; of; the; catalogue; please; thanks; a; lot"`,
        ...rows.map((r) => `${r},"a ""quoted"" note; y"`),
      ].join("\n") + "\n";
    await project.write({ "content/directors.csv": csv });
    const checked = await project.validate();
    expectNoCrash(checked);
    if (checked.code === 0) {
      expect(checked.stdout).toMatch(/2 directors/);
      return;
    }
    const line = expectRefused(checked, "content/directors.csv", null);
    const explained = checked.stderr
      .split("\n")
      .some(
        (l) =>
          l.includes("content/directors.csv") &&
          /separat|delimit/i.test(l) &&
          /;|semicolon/i.test(l) &&
          /header/i.test(l),
      );
    expect(
      explained,
      `no message says the file was read as ;-separated because of its header:\n${line}\n${checked.stderr}`,
    ).toBe(true);
  });
});

describe("characters XML forbids (item 4: dropped from spreadsheets and HTML)", () => {
  const xmllint = requireTool("xmllint", "the XML well-formedness checks");
  const unzip = requireTool("unzip", "the XML well-formedness checks");

  it.runIf(xmllint !== null && unzip !== null)(
    "a title holding U+FFFE and U+FFFF gives well-formed spreadsheets, feeds and sitemaps, and HTML without them",
    async () => {
      await restore();
      await project.write({
        "content/audiovisuals.csv": MINIMAL.audiovisuals.replace(
          "Viaje a la Luna",
          "Viaje a la \uFFFELuna\uFFFF",
        ),
      });
      const built = await project.build();
      expectNoCrash(built);
      if (built.code === 1) {
        // Refusing the title at its line is the other acceptable answer.
        expectRefused(built, "content/audiovisuals.csv", 2, /name/);
        return;
      }
      const root = await realpath(path.join(project.dir, "dist"));
      const problems: string[] = [];
      const scratch = await mkdtemp(path.join(tmpdir(), "catalogue-xlsx-"));
      try {
        for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile()) continue;
          const file = path.join(entry.parentPath, entry.name);
          const rel = path.relative(root, file);
          if (/\.xlsx$/.test(rel)) {
            const into = path.join(scratch, rel);
            await mkdir(into, { recursive: true });
            await run(unzip!, ["-q", "-o", file, "-d", into]);
            for (const part of await readdir(into, { recursive: true, withFileTypes: true })) {
              if (!part.isFile() || !/\.(xml|rels)$/.test(part.name)) continue;
              await run(xmllint!, ["--noout", path.join(part.parentPath, part.name)]).catch(
                (error: { stderr?: string }) =>
                  problems.push(
                    `${rel}!${path.relative(into, path.join(part.parentPath, part.name))}: ${String(error.stderr).split("\n")[0]}`,
                  ),
              );
            }
          } else if (/\.(xml|atom)$/.test(rel)) {
            await run(xmllint!, ["--noout", file]).catch((error: { stderr?: string }) =>
              problems.push(`${rel}: ${String(error.stderr).split("\n")[0]}`),
            );
          } else if (/\.html$/.test(rel)) {
            const text = await readFile(file, "utf8");
            if (/[\uFFFE\uFFFF]/.test(text)) problems.push(`${rel}: holds U+FFFE or U+FFFF`);
          }
        }
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});

describe("a content CSV that is a link out of the content folder (item 4)", () => {
  it("directors.csv linked to a valid file outside content/ is refused naming it", async () => {
    await restore();
    await project.write({ "outside/directors.csv": MINIMAL.directors });
    await project.link("content/directors.csv", path.join(project.dir, "outside/directors.csv"));
    await expectBothRefuse("content/directors.csv", null);
  });

  it("directors.csv linked to another file is refused without echoing its first line", async () => {
    await restore();
    const secret = "SECRET-FIRST-LINE-41c9";
    await project.write({ "outside/notes.txt": `${secret},x\nmore\n` });
    await project.link("content/directors.csv", path.join(project.dir, "outside/notes.txt"));
    const checked = await project.validate();
    expect(checked.stderr).not.toContain(secret);
    expectRefused(checked, "content/directors.csv", null);
  });

  it("directors.csv linked to /dev/zero is refused at once, by validate and build", async () => {
    await restore();
    await project.link("content/directors.csv", "/dev/zero");
    for (const args of [["validate", "--content", "content"], BUILD]) {
      const ran = await project.runTimed(args, 30_000);
      expect(ran.killed, `${args[0]} still reading after 30 s`).toBe(false);
      expectRefused(ran, "content/directors.csv", null);
    }
  });
});

describe("interface texts with placeholders of their own (item 4)", () => {
  const cases: [string, string][] = [
    ["{constructor}", '  "pageOf": "Página {page} de {total} {constructor}"'],
    ["{foo}", '  "skip": "Saltar {foo}"'],
    [
      "{toString} in a plural form",
      '  "works": { "one": "{n} obra {toString}", "other": "{n} obras" }',
    ],
  ];
  for (const [name, entry] of cases) {
    it(`site/i18n/es.json with ${name} is refused at its line`, async () => {
      await restore();
      await project.write({ "site/i18n/es.json": `{\n${entry}\n}\n` });
      await expectBothRefuse("site/i18n/es.json", 2, /\{|placeholder/, []);
    }, 60_000);
  }
});
