import { mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import { DirectoryStore } from "../../src/publish/targets/directory.ts";
import { publish } from "../../src/publish/publish.ts";
import { recordPath } from "../../src/publish/records/records.ts";
import { openTarget } from "../../src/publish/open-target.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { makeEditions, type Editions } from "./fixtures.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;

beforeAll(async () => {
  root = await tempDir("catalogue-mirror-");
  editions = await makeEditions(root.dir, 30);
});
afterAll(() => root?.cleanup());

const mirror = (name: string) => path.join(root.dir, name);

describe("directory target", () => {
  it("refuses a folder that holds files it did not publish, and leaves them alone", async () => {
    const place = mirror("foreign");
    await mkdir(place);
    await writeFile(path.join(place, "notes.txt"), "mine");
    const failure = publish({ dir: editions.before, target: new DirectoryStore(place) });
    await expect(failure).rejects.toThrow(UserError);
    await expect(failure).rejects.toThrow("is not empty and was not published by catalogue");
    expect(await readdir(place)).toEqual(["notes.txt"]);
  });

  it("trusts its records; --verify repairs a file changed in the mirror behind its back", async () => {
    const place = mirror("tampered");
    await publish({ dir: editions.before, target: new DirectoryStore(place) });
    const rel = `domain-1.example/_api/detail/${editions.retitled.id}.json`;
    const file = path.join(place, rel);
    const original = await readFile(file);
    // Same size, other bytes, a later mtime: the quick check sees the mtime and rehashes.
    await writeFile(file, Buffer.alloc(original.length, 32));
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    // A publish trusts what it recorded: it reads no file of the mirror.
    expect(
      (await publish({ dir: editions.before, target: new DirectoryStore(place) })).plan.uploads,
    ).toEqual([]);
    const summary = await publish({
      dir: editions.before,
      target: new DirectoryStore(place),
      verify: true,
    });
    expect(summary.plan.uploads.map((u) => [u.file.path, u.reason])).toEqual([[rel, "changed"]]);
    expect((await readFile(file)).equals(original)).toBe(true);
  });

  it("deletes the temporary files of a killed run and the folders left empty", async () => {
    const place = mirror("leftovers");
    await publish({ dir: editions.before, target: new DirectoryStore(place) });
    // A run killed while writing: a temporary file, and its domain's record left updating.
    const temp = path.join(place, "domain-1.example/_api/detail/.1.json.99999.tmp");
    await writeFile(temp, "half");
    const record = path.join(place, recordPath("domain-1.example"));
    await writeFile(
      record,
      (await readFile(record, "utf8")).replace('"state":"complete"', '"state":"updating"'),
    );
    const summary = await publish({ dir: editions.after, target: new DirectoryStore(place) });
    expect(summary.plan.deletes).toEqual(editions.removed);
    await expect(stat(temp)).rejects.toThrow();
    const emptyFolders: string[] = [];
    for (const d of await readdir(place, { recursive: true, withFileTypes: true })) {
      if (d.isDirectory() && (await readdir(path.join(d.parentPath, d.name))).length === 0)
        emptyFolders.push(d.name);
    }
    expect(emptyFolders).toEqual([]);
  });

  it("refuses to publish into the build or around it", async () => {
    for (const to of [editions.before, path.join(editions.before, "copy"), root.dir]) {
      await expect(openTarget(to, { dir: editions.before, env: {} })).rejects.toThrow(
        "is inside the build",
      );
    }
  });
});
