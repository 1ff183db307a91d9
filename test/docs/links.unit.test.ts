import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every relative link in the project's documents leads somewhere: the file exists and, when the
 * link names a heading (`file.md#anchor`), the file has that heading. The code cites
 * docs/interface.md's sections the same way, so those citations are checked too.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCUMENTS = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code spans, where links and headings live. */
function prose(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === null || fence === marker)) {
      fence = fence === null ? marker : null;
      continue;
    }
    lines.push(
      fence === null ? line.replace(/`[^`]*`/g, (code) => code.replace(/[[\]()#]/g, " ")) : "",
    );
  }
  return lines;
}

/** GitHub's anchor for a heading's text: lowercase, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a document's headings, numbered as GitHub numbers repeated ones. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fence: string | null = null;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const marker = /^\s*(```|~~~)/.exec(line)?.[1];
    if (marker && (fence === null || fence === marker)) fence = fence === null ? marker : null;
    const heading = fence === null && !marker ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line) : null;
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Each relative link of a document: its line and target. */
function links(doc: string): { line: number; target: string }[] {
  const found: { line: number; target: string }[] = [];
  prose(readFileSync(path.join(ROOT, doc), "utf8")).forEach((text, i) => {
    for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:: not checked here
      found.push({ line: i + 1, target });
    }
  });
  return found;
}

/** What is wrong with one link, or null. */
function broken(doc: string, target: string): string | null {
  const [file, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved =
    file === ""
      ? path.join(ROOT, doc)
      : path.resolve(path.dirname(path.join(ROOT, doc)), decodeURIComponent(file));
  if (!existsSync(resolved)) return "no such file";
  if (anchor === undefined) return null;
  if (!resolved.endsWith(".md") || statSync(resolved).isDirectory())
    return "an anchor into a file that is not Markdown";
  return anchors(resolved).has(decodeURIComponent(anchor)) ? null : `no heading #${anchor}`;
}

describe("documentation links", () => {
  it("turns headings into GitHub's anchors", () => {
    expect(slug("Input: the `content/` folder")).toBe("input-the-content-folder");
    expect(slug("Shards: many publishers, one bucket")).toBe("shards-many-publishers-one-bucket");
    expect(slug("`catalogue dev`")).toBe("catalogue-dev");
    expect(slug("Memory: one domain at a time")).toBe("memory-one-domain-at-a-time");
  });

  it.each(DOCUMENTS)("every relative link in %s resolves to a file and heading", (doc) => {
    const problems = links(doc)
      .map(({ line, target }) => ({ line, target, problem: broken(doc, target) }))
      .filter((l) => l.problem !== null)
      .map(({ line, target, problem }) => `${doc}:${line}: ${target}: ${problem}`);
    expect(problems).toEqual([]);
  });

  it("every citation of docs/interface.md in the code names one of its sections", () => {
    const sections = anchors(path.join(ROOT, "docs/interface.md"));
    const problems: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? walk(`${dir}/${e.name}`)
          : e.name.endsWith(".ts")
            ? [`${dir}/${e.name}`]
            : [],
      );
    const files = ["src", "test", "scripts"].flatMap(walk);
    for (const file of files) {
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .forEach((text, i) => {
          for (const match of text.matchAll(
            /docs\/interface\.md#([\w-]+)(?:(?: and | or |, )#([\w-]+))?/g,
          )) {
            for (const anchor of match.slice(1).filter((a): a is string => a !== undefined)) {
              if (!sections.has(anchor))
                problems.push(`${file}:${i + 1}: docs/interface.md#${anchor}: no such section`);
            }
          }
        });
    }
    expect(files.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });

  it("keeps the README short enough to read (at most 300 lines)", () => {
    expect(
      readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length,
    ).toBeLessThanOrEqual(301);
  });
});
