import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { usageOf } from "../src/cli/command.ts";
import { commands } from "../src/cli/command-list.ts";
import { flagText } from "../src/cli/option-table.ts";
import { ROOT } from "./helpers/catalogue.ts";

/** A row of the README's option table: `--out DIR` | build, dev, deploy | what it means. */
interface Row {
  option: string;
  commands: string[];
  description: string;
}

const readme = () => readFile(path.join(ROOT, "README.md"), "utf8");

/** The option table's rows, as written (a parenthesised part of the command cell is a comment). */
function readmeRows(text: string): Row[] {
  const lines = text.split("\n");
  const header = lines.indexOf("| option | command | meaning |");
  expect(header, "the README's option table").toBeGreaterThan(-1);
  expect(lines[header + 1]).toBe("|---|---|---|");
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.slice(1, -1).split(" | ");
    expect(cells, line).toHaveLength(3);
    const [option, used, description] = cells.map((c) => c.trim()) as [string, string, string];
    rows.push({
      option: option.replace(/^`(.*)`$/, "$1"),
      commands: used
        .replace(/\([^)]*\)/g, "")
        .split(",")
        .map((c) => c.trim())
        .sort(),
      description,
    });
  }
  return rows;
}

/** The rows the declarations call for: one per flag, value hint and description. */
async function declaredRows(): Promise<Row[]> {
  const rows = new Map<string, Row>();
  for (const entry of commands) {
    const { options } = await entry.load();
    for (const [flag, spec] of Object.entries(options)) {
      const option = flagText(flag, spec);
      const key = `${option}\n${spec.description}`;
      const row = rows.get(key) ?? { option, commands: [], description: spec.description };
      row.commands.push(entry.name);
      rows.set(key, row);
    }
  }
  return [...rows.values()].map((row) => ({ ...row, commands: row.commands.sort() }));
}

const byKey = (a: Row, b: Row) =>
  `${a.option}\n${a.description}`.localeCompare(`${b.option}\n${b.description}`);

// Like Datasette's test_docs.py: a flag that a user cannot find in the README is a bug, and so is
// a README that says something else than the command does.
describe("documentation", () => {
  it("the README's option table has one row per declared option, word for word", async () => {
    const written = readmeRows(await readme());
    const options = written.filter((row) => row.option.startsWith("--"));
    // Strict: the same rows, no more, no fewer; each with the same flag and value hint, the same
    // commands and the same description as the declaration (src/cli/option-table.ts).
    expect(options.sort(byKey)).toEqual((await declaredRows()).sort(byKey));
    // The other rows are positional words, each in the usage line of the commands it names.
    for (const row of written.filter((r) => !r.option.startsWith("--")))
      for (const name of row.commands) {
        const entry = commands.find((c) => c.name === name);
        expect(entry, `${row.option}: no command ${name}`).toBeDefined();
        expect(usageOf(name, await entry!.load())).toContain(`[${row.option}]`);
      }
  });

  it("the README's Commands block is every command's usage line, in the main help's order", async () => {
    const block = /## Commands\n\n```\n([^`]*)```/.exec(await readme())?.[1];
    expect(block, "the Commands block").toBeDefined();
    const written = block!
      .trimEnd()
      .split("\n")
      .map((line) => line.replace(/ +/g, " "));
    const declared: string[] = [];
    for (const entry of commands)
      declared.push(...usageOf(entry.name, await entry.load()).split(/\n +/));
    expect(written).toEqual(declared);
  });
});

/** Keep a Changelog's types, in its order, then what only contributors see. */
const CHANGELOG_HEADINGS = [
  "Added",
  "Changed",
  "Deprecated",
  "Removed",
  "Fixed",
  "Security",
  "For contributors",
];

/** The `###` headings of each release (`## [...]`) of a changelog, that are out of order or unknown. */
function misplacedHeadings(changelog: string): string[] {
  const problems: string[] = [];
  for (const release of changelog.split(/^## /m).slice(1)) {
    const name = release.slice(0, release.indexOf("\n"));
    let last = -1;
    for (const [, heading] of release.matchAll(/^### (.+)$/gm)) {
      const at = CHANGELOG_HEADINGS.indexOf(heading!);
      if (at <= last) problems.push(`${name}: "${heading}"`);
      else last = at;
    }
  }
  return problems;
}

describe("the changelog", () => {
  it("has, in each release, Keep a Changelog's types in order, then For contributors, once each", async () => {
    expect(misplacedHeadings(await readFile(path.join(ROOT, "CHANGELOG.md"), "utf8"))).toEqual([]);
    // The check itself: a type after "For contributors", a repeat, an unknown heading.
    expect(
      misplacedHeadings(
        "## [1]\n### Fixed\n### For contributors\n### Added\n## [2]\n### Fixed\n### Fixed\n### Notes\n",
      ),
    ).toEqual(['[1]: "Added"', '[2]: "Fixed"', '[2]: "Notes"']);
  });
});
