import { readFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishCommand } from "../../src/cli/commands/publish.ts";
import { helpOf, usageOf } from "../../src/cli/command.ts";
import { ROOT, tempDir } from "../helpers/catalogue.ts";
import { makeEditions, type Editions } from "./fixtures.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;

beforeAll(async () => {
  root = await tempDir("catalogue-publish-cli-");
  editions = await makeEditions(root.dir, 25);
});
afterAll(() => root?.cleanup());

function io(interactive = false) {
  const out = { stdout: "", stderr: "" };
  const sink = (key: "stdout" | "stderr") =>
    new Writable({
      write(chunk, _encoding, done) {
        out[key] += chunk.toString();
        done();
      },
    });
  return { out, io: { stdout: sink("stdout"), stderr: sink("stderr"), interactive, env: {} } };
}

// What parseArgs gives for no flag at all.
const defaults = {
  dir: "dist",
  "dry-run": false,
  verify: false,
  "prune-media": false,
  to: undefined,
  endpoint: undefined,
  "max-deletes": undefined,
  domain: undefined,
};

describe("catalogue publish (flags)", () => {
  it("documents every flag in docs/publishing.md and in --help", async () => {
    const docs = await readFile(path.join(ROOT, "docs/publishing.md"), "utf8");
    for (const flag of Object.keys(publishCommand.options)) {
      expect(docs, flag).toContain(`\`--${flag}`);
      expect(helpOf("publish", "", publishCommand), flag).toContain(`--${flag}`);
      expect(usageOf("publish", publishCommand), flag).toContain(`--${flag}`);
    }
  });

  it("rejects bad flag values with a message", async () => {
    const { io: quiet } = io();
    await expect(publishCommand.run({ ...defaults }, [], quiet)).rejects.toThrow(
      "--to is required",
    );
    await expect(
      publishCommand.run({ ...defaults, to: "x", "max-deletes": "many" }, [], quiet),
    ).rejects.toThrow("--max-deletes many: expected a whole number");
    await expect(
      publishCommand.run({ ...defaults, to: "/tmp/x", endpoint: "http://h" }, [], quiet),
    ).rejects.toThrow("--endpoint applies to s3:// targets only");
    await expect(publishCommand.run({ ...defaults, to: "gs://bucket" }, [], quiet)).rejects.toThrow(
      "unsupported scheme",
    );
    await expect(
      publishCommand.run({ ...defaults, to: "s3://b", endpoint: "127.0.0.1:9000" }, [], quiet),
    ).rejects.toThrow("expected a URL");
    await expect(
      publishCommand.run(
        { ...defaults, to: path.join(root.dir, "m"), dir: path.join(root.dir, "nothing") },
        [],
        quiet,
      ),
    ).rejects.toThrow('does not exist: run "catalogue build');
  });

  it("a dry run prints the plan with reasons; the delete guard still speaks", async () => {
    const mirror = path.join(root.dir, "mirror");
    const first = io();
    await publishCommand.run({ ...defaults, to: mirror, dir: editions.before }, [], first.io);
    expect(first.out.stdout).toBe("");
    const dry = io();
    const refused = publishCommand.run(
      { ...defaults, to: mirror, dir: editions.after, "dry-run": true, "max-deletes": "0" },
      [],
      dry.io,
    );
    await expect(refused).rejects.toThrow(
      `publishing would delete ${editions.removed.length} files`,
    );
    const lines = dry.out.stdout.trim().split("\n");
    expect(
      lines.filter((l) => l.startsWith("upload  changed  ")).length +
        lines.filter((l) => l.startsWith("upload  new      ")).length,
    ).toBe(editions.changed.length);
    expect(lines.filter((l) => l.startsWith("delete  ")).map((l) => l.slice(17))).toEqual(
      editions.removed,
    );
    expect(dry.out.stderr).toContain("nothing was changed");
  });

  it("shows progress on a terminal only, and ends with one summary line", async () => {
    const tty = io(true);
    await publishCommand.run(
      { ...defaults, to: path.join(root.dir, "tty"), dir: editions.before },
      [],
      tty.io,
    );
    // eslint-disable-next-line no-control-regex -- the terminal's erase-line sequence
    expect(tty.out.stderr).toMatch(/\r\x1b\[Kuploading \d+\/\d+ files/);
    // The progress line is erased before the summary is written.
    expect(tty.out.stderr.split("\r\x1b[K").at(-1)).toMatch(
      /^published to .*tty: \d+ uploaded, 0 skipped, 0 deleted, .* in [\d.]+ s\n$/,
    );
    const plain = io(false);
    await publishCommand.run(
      { ...defaults, to: path.join(root.dir, "plain"), dir: editions.before },
      [],
      plain.io,
    );
    expect(plain.out.stderr).toMatch(
      /^published to .*plain: \d+ uploaded, 0 skipped, 0 deleted, .* in [\d.]+ s\n$/,
    );
  });
});
