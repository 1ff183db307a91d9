import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkContent } from "../../src/content/load.ts";
import { formatProblem, formatWarning, sortProblems } from "../../src/errors.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { tinyPng, writeContent } from "../helpers/content.ts";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

/** The formatted problems of a content folder, with the temp path shortened to "content". */
async function problemsOf(files: Parameters<typeof writeContent>[1], images?: string[]) {
  const content = await writeContent(path.join(dir, "content"), files, images);
  const check = await checkContent(content);
  return {
    problems: sortProblems(check.problems).map((p) =>
      formatProblem(p).replaceAll(content, "content"),
    ),
    warnings: check.warnings.map((p) => formatWarning(p).replaceAll(content, "content")),
    catalogue: check.catalogue,
  };
}

describe("content validation", () => {
  it("accepts the minimal catalogue and fills the defaults", async () => {
    const { problems, catalogue } = await problemsOf({});
    expect(problems).toEqual([]);
    expect(catalogue!.domains[0]).toEqual({
      domain: "uno.example",
      name: "Uno",
      base_url: "https://uno.example",
      media_url: "https://uno.example/media",
      locale: "es",
      default_ordering: "name",
      new_days: 30,
      export_window_days: 30,
    });
    expect(catalogue!.works.map((w) => [w.id, w.status_global, w.director_id, w.year])).toEqual([
      [10, 1, 1, 1902],
      [11, 1, 2, 1896],
      [12, 1, null, null],
    ]);
  });

  it("accepts a BOM, CRLF line ends and quoted fields with commas, quotes and line breaks", async () => {
    const directors =
      '\uFEFFid,name,slug,description_es\r\n1,"Méliès, Georges",georges-melies,"Dijo ""hola"".\r\nSegunda línea."\r\n2,Alice Guy,alice-guy,\r\n';
    const { problems, catalogue } = await problemsOf({ directors });
    expect(problems).toEqual([]);
    expect(catalogue!.directors.get(1)!.name).toBe("Méliès, Georges");
    expect(catalogue!.directors.get(1)!.description_es).toBe('Dijo "hola".\nSegunda línea.');
  });

  it("reports unknown columns as warnings, not errors", async () => {
    const { problems, warnings } = await problemsOf({
      domains: "domain,name,colour\nuno.example,Uno,red\ndos.example,Dos,\n",
    });
    expect(problems).toEqual([]);
    expect(warnings).toEqual(["content/domains.csv:1: warning: colour: unknown column; ignored"]);
  });

  it("names the file a column of another file belongs in", async () => {
    const { problems, warnings } = await problemsOf({
      audiovisuals: "id,name,slug,cover,watch_url,available_from,domain\n10,A,a,covers/a.png,,,\n",
      availability: "audiovisual_id,domain,available_from\n10,uno.example,2020-01-01\n",
    });
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      "content/audiovisuals.csv:1: warning: watch_url: this column belongs in domains.csv, not in this file; ignored here",
      "content/audiovisuals.csv:1: warning: available_from: this column belongs in availability.csv, not in this file; ignored here",
      "content/audiovisuals.csv:1: warning: domain: this column belongs in domains.csv or availability.csv, not in this file; ignored here",
    ]);
  });

  it("names the column a header typo meant: one error for a required one, a warning for an optional one", async () => {
    const { problems, warnings } = await problemsOf({
      audiovisuals: "id,nmae,Slug,yaer,colour,cover\n10,Viaje,viaje,1902,red,covers/a.png\n",
    });
    expect(problems).toEqual([
      'content/audiovisuals.csv:1: nmae: unknown column; did you mean "name"?',
      'content/audiovisuals.csv:1: Slug: unknown column; did you mean "slug"?',
    ]);
    expect(warnings).toEqual([
      'content/audiovisuals.csv:1: warning: yaer: unknown column (did you mean "year"?); ignored',
      "content/audiovisuals.csv:1: warning: colour: unknown column; ignored",
    ]);
  });

  it("reports every cell problem of every file at once, at the line where the record starts", async () => {
    const { problems } = await problemsOf({
      directors:
        'id,name,slug,show_img\n1,"Georges\nMéliès",georges-melies,yes\nx,Alice,Alice Guy,\n',
      audiovisuals:
        "id,name,slug,audiovisual_type,director_id,year,duration,cover,status_global\n" +
        "10,Viaje,../x,comedia,1,19x9,-3,covers/a.png,1\n" +
        "11,Otra,otra,peliculas,,1869,,covers/a.png,uno\n" +
        "12,,elan,,,2101,,,\n",
      availability:
        "audiovisual_id,domain,available_from,available_until\n10,uno.example,2023-02-30,2023-13-01\n",
    });
    expect(problems).toEqual([
      'content/audiovisuals.csv:2: audiovisual_type: expected one of peliculas, documentales, cortometrajes, artes-escenicas or empty, got "comedia"',
      'content/audiovisuals.csv:2: duration: expected an integer between 1 and 100000, got "-3"',
      'content/audiovisuals.csv:2: slug: expected lowercase letters, digits and single hyphens (like "a-trip-to-the-moon"), got "../x"',
      'content/audiovisuals.csv:2: year: expected an integer between 1870 and 2100, got "19x9"',
      'content/audiovisuals.csv:3: status_global: expected an integer between 0 and 1000000, got "uno"',
      'content/audiovisuals.csv:3: year: expected an integer between 1870 and 2100, got "1869"',
      "content/audiovisuals.csv:4: cover: a value is required",
      "content/audiovisuals.csv:4: name: a value is required",
      'content/audiovisuals.csv:4: year: expected an integer between 1870 and 2100, got "2101"',
      'content/availability.csv:2: available_from: expected a date YYYY-MM-DD or DD/MM/YYYY (day first), got "2023-02-30"',
      'content/availability.csv:2: available_until: expected a date YYYY-MM-DD or DD/MM/YYYY (day first), got "2023-13-01"',
      "content/directors.csv:2: name: must be on one line: remove the line break",
      'content/directors.csv:2: show_img: expected true or false, got "yes"',
      'content/directors.csv:4: id: expected a positive integer, got "x"',
      'content/directors.csv:4: slug: expected lowercase letters, digits and single hyphens (like "a-trip-to-the-moon"), got "Alice Guy"',
    ]);
  });

  it("reports duplicates, dangling references and windows that end before they start", async () => {
    const { problems } = await problemsOf({
      domains: "domain,name\nuno.example,Uno\nuno.example,Otra vez\n",
      audiovisuals:
        "id,name,slug,director_id,cover\n10,Uno,uno,1,covers/a.png\n10,Dos,uno,9,covers/a.png\n",
      availability:
        "audiovisual_id,domain,available_from,available_until\n" +
        "10,uno.example,2020-01-01,\n10,uno.example,2021-01-01,\n99,nada.example,2020-05-01,2020-04-30\n",
    });
    expect(problems).toEqual([
      "content/audiovisuals.csv:3: director_id: no director with id 9 in content/directors.csv",
      "content/audiovisuals.csv:3: id: 10 is already used at line 2",
      'content/audiovisuals.csv:3: slug: "uno" is already used at line 2',
      "content/availability.csv:3: audiovisual_id: audiovisual 10 already has a row for uno.example at line 2: keep one row per work and domain",
      "content/availability.csv:4: audiovisual_id: no audiovisual with id 99 in content/audiovisuals.csv",
      "content/availability.csv:4: available_until: 2020-04-30 is before available_from 2020-05-01",
      'content/availability.csv:4: domain: no domain "nada.example" in content/domains.csv',
      'content/domains.csv:3: domain: "uno.example" is already used at line 2',
    ]);
  });

  it("reports missing files and missing required columns", async () => {
    const content = await writeContent(path.join(dir, "content"), {
      audiovisuals: "id,name,slug\n10,Uno,uno\n",
    });
    await writeFile(path.join(content, "directors.csv"), "");
    const { rm } = await import("node:fs/promises");
    await rm(path.join(content, "availability.csv"));
    const check = await checkContent(content);
    expect(
      sortProblems(check.problems).map((p) => formatProblem(p).replaceAll(content, "content")),
    ).toEqual([
      "content/audiovisuals.csv:1: cover: required column is missing from the header",
      'content/availability.csv: file is missing: create it with the header row "audiovisual_id,domain,available_from"',
      'content/directors.csv:1: the file is empty: add the header row "id,name,slug"',
    ]);
  });

  it("reports invalid UTF-8 and an unclosed quote with their lines", async () => {
    const content = await writeContent(path.join(dir, "content"));
    await writeFile(
      path.join(content, "directors.csv"),
      Buffer.concat([
        Buffer.from("id,name,slug\n1,Ok,ok\n"),
        Buffer.from("2,Méliès,m\n", "latin1"),
      ]),
    );
    await writeFile(
      path.join(content, "domains.csv"),
      'domain,name\nuno.example,Uno\ndos.example,"Dos\n',
    );
    const check = await checkContent(content);
    expect(
      sortProblems(check.problems).map((p) => formatProblem(p).replaceAll(content, "content")),
    ).toContain(
      'content/directors.csv:3: not UTF-8 ("Méliès" if read as Windows-1252): save it as UTF-8: in Excel, Save As "CSV UTF-8 (Comma delimited)"; in LibreOffice, Save As "Text CSV" with "Edit filter settings" and Character set "Unicode (UTF-8)"',
    );
    expect(
      sortProblems(check.problems).map((p) => formatProblem(p).replaceAll(content, "content")),
    ).toContain(
      "content/domains.csv:3: a quoted field is never closed: add the closing double quote",
    );
  });

  it("rejects bad domains, URLs, locales and orderings", async () => {
    const { problems } = await problemsOf({
      domains:
        "domain,name,base_url,media_url,locale,default_ordering,new_days\n" +
        "Uno.Example,Uno,ftp://x.example,https://m.example/_x,not a locale,-date,ten\n" +
        "dos.example,Dos,https://u:p@dos.example,,,,\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    expect(problems).toEqual([
      'content/domains.csv:2: base_url: expected an http(s) URL without credentials, query or fragment, got "ftp://x.example"',
      'content/domains.csv:2: default_ordering: expected one of name, -name, year, -year, got "-date"',
      'content/domains.csv:2: domain: expected a lowercase host name like "biblioteca.example.org" (no scheme, port or path), got "Uno.Example"',
      'content/domains.csv:2: locale: expected a language tag like "es" or "en-GB", got "not a locale"',
      'content/domains.csv:2: media_url: path segments must not start with "_" or "." (they are reserved), got "https://m.example/_x"',
      'content/domains.csv:2: new_days: expected an integer between 0 and 36500, got "ten"',
      'content/domains.csv:3: base_url: expected an http(s) URL without credentials, query or fragment, got "https://u:p@dos.example"',
    ]);
  });

  it("rejects images that are missing, outside the folder, not images, or symlinks leaving it", async () => {
    const content = await writeContent(path.join(dir, "content"), {
      audiovisuals:
        "id,name,slug,director_id,cover\n" +
        "10,A,a,1,covers/missing.png\n11,B,b,1,../outside.png\n12,C,c,1,covers/text.png\n13,D,d,1,covers/link.png\n14,E,e,1,/etc/passwd\n" +
        "15,F,f,1,elsewhere/outside.png\n16,G,g,1,covers/inner/ok.png\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    await tinyPng(path.join(dir, "outside.png"));
    await writeFile(path.join(content, "covers/text.png"), "not an image");
    await symlink(path.join(dir, "outside.png"), path.join(content, "covers/link.png"));
    // A folder that is a symlink leaving the content folder: its plain files leave it too.
    await symlink(dir, path.join(content, "elsewhere"));
    // One that stays inside is fine.
    await mkdir(path.join(content, "inner"));
    await tinyPng(path.join(content, "inner", "ok.png"));
    await symlink(path.join(content, "inner"), path.join(content, "covers/inner"));
    const check = await checkContent(content);
    // Missing or unreadable: a warning, and a drawn cover; a path that leaves the folder: an error.
    expect(
      sortProblems(check.warnings).map((p) => formatWarning(p).replaceAll(content, "content")),
    ).toEqual([
      'content/audiovisuals.csv:2: warning: cover: image file not found: "covers/missing.png" (content/covers/missing.png); a cover drawn from the row stands in',
      'content/audiovisuals.csv:4: warning: cover: not a readable image: "covers/text.png" (content/covers/text.png); a cover drawn from the row stands in',
    ]);
    // Under --strict the same lines are errors, without what a build would do instead.
    expect(formatProblem(sortProblems(check.warnings)[0]!).replaceAll(content, "content")).toBe(
      'content/audiovisuals.csv:2: cover: image file not found: "covers/missing.png" (content/covers/missing.png)',
    );
    expect(check.missing.map((m) => m.rel)).toEqual(["/drawn/cover-10", "/drawn/cover-12"]);
    expect(
      sortProblems(check.problems).map((p) => formatProblem(p).replaceAll(content, "content")),
    ).toEqual([
      'content/audiovisuals.csv:3: cover: the image must be inside the content folder, got "../outside.png"',
      'content/audiovisuals.csv:5: cover: the image resolves outside the content folder (a symlink?): "covers/link.png"',
      'content/audiovisuals.csv:6: cover: expected a path relative to the content folder (like "covers/title.jpg"), got "/etc/passwd"',
      'content/audiovisuals.csv:7: cover: the image resolves outside the content folder (a symlink?): "elsewhere/outside.png"',
    ]);
    expect(check.catalogue).toBeNull();
  });

  it("warns once of a missing image that rows share, naming their lines, and draws a stand-in from each row", async () => {
    const rows = [10, 11, 12, 13, 15, 16].map(
      (id) => `${id},Obra ${id},obra-${id},1,covers/none.png`,
    );
    const content = await writeContent(path.join(dir, "content"), {
      audiovisuals:
        [
          "id,name,slug,director_id,cover",
          ...rows.slice(0, 4),
          "14,Other,other,1,covers/a.png",
          ...rows.slice(4),
        ].join("\n") + "\n",
      directors: "id,name,slug,photo\n1,Uno,uno,photos/none.png\n2,Dos,dos,photos/none.png\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    const check = await checkContent(content);
    expect(check.problems).toEqual([]);
    expect(
      sortProblems(check.warnings).map((p) => formatWarning(p).replaceAll(content, "content")),
    ).toEqual([
      'content/audiovisuals.csv:2: warning: cover: image file not found: "covers/none.png" (content/covers/none.png), named on lines 2-5, 7-8; a cover drawn from each row stands in',
      'content/directors.csv:2: warning: photo: image file not found: "photos/none.png" (content/photos/none.png), named on lines 2-3; a photo drawn from each row stands in',
    ]);
    // Each row names a stand-in of its own, drawn from that row.
    const works = check.catalogue!.works;
    expect(works.map((w) => w.cover)).toEqual([
      "/drawn/cover-10",
      "/drawn/cover-11",
      "/drawn/cover-12",
      "/drawn/cover-13",
      "covers/a.png",
      "/drawn/cover-15",
      "/drawn/cover-16",
    ]);
    expect([...check.catalogue!.directors.values()].map((d) => d.photo)).toEqual([
      "/drawn/photo-1",
      "/drawn/photo-2",
    ]);
    expect(
      check.missing.map((m) => [m.rel, m.kind === "cover" ? m.work.name : m.director.name]),
    ).toEqual([
      ["/drawn/cover-10", "Obra 10"],
      ["/drawn/cover-11", "Obra 11"],
      ["/drawn/cover-12", "Obra 12"],
      ["/drawn/cover-13", "Obra 13"],
      ["/drawn/cover-15", "Obra 15"],
      ["/drawn/cover-16", "Obra 16"],
      ["/drawn/photo-1", "Uno"],
      ["/drawn/photo-2", "Dos"],
    ]);
  });

  it("warns once of a missing logo that domains share", async () => {
    const { problems, warnings } = await problemsOf({
      domains: "domain,name,logo\nuno.example,Uno,brand/none.png\ndos.example,Dos,brand/none.png\n",
    });
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      'content/domains.csv:2: warning: logo: image file not found: "brand/none.png" (content/brand/none.png), named on lines 2-3; the library\'s name is shown instead',
    ]);
  });

  it("refuses a content CSV that is a link out of the content folder, without reading it", async () => {
    const content = await writeContent(path.join(dir, "content"), {});
    await writeFile(path.join(dir, "secret.txt"), "SECRET,first line\n");
    await rm(path.join(content, "directors.csv"));
    await symlink(path.join(dir, "secret.txt"), path.join(content, "directors.csv"));
    // A link inside the folder is read where it leads.
    await mkdir(path.join(content, "kept"));
    await rename(path.join(content, "domains.csv"), path.join(content, "kept", "domains.csv"));
    await symlink(path.join(content, "kept", "domains.csv"), path.join(content, "domains.csv"));
    const check = await checkContent(content);
    const problems = check.problems.map((p) => formatProblem(p).replaceAll(dir, "DIR"));
    expect(problems).toEqual([
      "DIR/content/directors.csv: a link to DIR/secret.txt, outside the content folder: copy the file into the content folder instead",
    ]);
    expect([...check.problems, ...check.warnings].map(formatProblem).join("\n")).not.toContain(
      "SECRET",
    );
  });

  it("rejects decompression bombs by their pixel count", async () => {
    const content = await writeContent(path.join(dir, "content"), {
      audiovisuals: "id,name,slug,cover\n10,A,a,covers/huge.png\n",
      availability: "audiovisual_id,domain,available_from\n",
    });
    const sharp = (await import("sharp")).default;
    // 10000 x 6000 = 60 megapixels of one colour compresses to a few kilobytes.
    await writeFile(
      path.join(content, "covers/huge.png"),
      await sharp({ create: { width: 10000, height: 6000, channels: 3, background: "#000" } })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
    const check = await checkContent(content);
    expect(check.problems.map(formatProblem).map((m) => m.replaceAll(content, "content"))).toEqual([
      'content/audiovisuals.csv:2: cover: image is 10000x6000 pixels, more than the 50 megapixels allowed: "covers/huge.png"',
    ]);
  });
});
