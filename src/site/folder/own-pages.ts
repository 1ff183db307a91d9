import path from "node:path";
import matter from "gray-matter";
import MarkdownIt from "markdown-it";
import type { Problem } from "../../errors.ts";
import { LANGUAGES, type Language } from "../../content/schema.ts";
import { engineOf, type Engines, type Render } from "./engines.ts";
import { isProductPath } from "../../util/product-paths.ts";

/**
 * A library's own pages: `site/pages/**` with front matter (`title` required; `nav`, a number,
 * places the page in the header's navigation, in that order; `description` for search engines),
 * each built for every domain at `{base_url}/{path}/` (`pages/about.md` → `about/`,
 * `pages/help/index.md` → `help/`). `pages/<lang>/…` is that language's version of the same page.
 * Markdown goes through markdown-it (Eleventy's own, HTML allowed: the library writes these
 * files); Liquid bodies are rendered per domain and language with the pages' data; HTML is taken
 * as it is. Front matter is YAML only: gray-matter would run a JavaScript one (`---js`).
 */
export interface OwnPage {
  /** The page's folder below the site root, ending in "/". */
  dir: string;
  /** The language of this version, or null for the page every language gets without its own. */
  lang: Language | null;
  title: string;
  nav: number | null;
  description: string | null;
  /** The file as the user names it. */
  file: string;
  /** The body's HTML: the same for every domain (Markdown, HTML), or rendered with the page's data. */
  body: string | Render;
}

const EXTENSIONS = [".md", ".liquid", ".html"];

/**
 * gray-matter's engines other than YAML, each refusing: its own `javascript` engine is an `eval`,
 * chosen by the word after the opening `---`. The first line is checked before (only `---`), so
 * these never run; they are the second lock.
 */
const CODE = (): never => {
  throw new Error("only YAML front matter is read");
};
const ENGINES = { javascript: CODE, js: CODE, coffee: CODE, coffeescript: CODE, cson: CODE };

let markdown: MarkdownIt | undefined;

export function loadOwnPages(
  dir: string,
  files: readonly { rel: string; text: string }[],
  engines: Engines,
  problems: Problem[],
): OwnPage[] {
  const pages: OwnPage[] = [];
  for (const { rel, text } of files) {
    const file = path.join(dir, rel);
    const ext = path.extname(rel);
    if (!EXTENSIONS.includes(ext)) {
      problems.push({
        file,
        message: `an own page is Markdown (.md), Liquid (.liquid) or HTML (.html)`,
      });
      continue;
    }
    let parts = rel.slice("pages/".length, -ext.length).split("/");
    const lang =
      LANGUAGES.includes(parts[0] as Language) && parts.length > 1 ? (parts[0] as Language) : null;
    if (lang !== null) parts = parts.slice(1);
    if (parts.at(-1) === "index") parts = parts.slice(0, -1);
    if (parts.length === 0) {
      problems.push({
        file,
        message:
          "the site root is the catalogue's home page: give the page a name (pages/about.md is /about/)",
      });
      continue;
    }
    const bad = parts.find((p) => !/^[a-z0-9][a-z0-9._-]*$/.test(p));
    if (bad !== undefined) {
      problems.push({
        file,
        message: `"${bad}": a page's path is lowercase letters, digits, ".", "-" and "_"`,
      });
      continue;
    }
    // The product's paths (util/product-paths.ts) and every language folder; a domain's media
    // folder, which depends on its media_url, is checked per domain by ownPageProblems.
    if (isProductPath(parts[0]!) || LANGUAGES.includes(parts[0] as Language)) {
      problems.push({
        file,
        message: `/${parts[0]}/ is the catalogue's own: choose another path for this page`,
      });
      continue;
    }
    const fence = /^\uFEFF?---(?!-)([^\r\n]*)/.exec(text);
    if (fence !== null && fence[1]!.trim() !== "") {
      problems.push({
        file,
        line: 1,
        message: `front matter: only YAML is read, between two lines of just "---"; "---${fence[1]!.trim()}" would be code, which site/ never runs`,
      });
      continue;
    }
    let front: { data: Record<string, unknown>; content: string };
    try {
      front = matter(text, { language: "yaml", engines: ENGINES });
    } catch (error) {
      const mark = (error as { mark?: { line?: number } }).mark;
      problems.push({
        file,
        ...(mark?.line !== undefined ? { line: mark.line + 2 } : {}),
        message: `front matter: ${(error as { reason?: string }).reason ?? (error as Error).message}`,
      });
      continue;
    }
    const { title, nav, description } = front.data;
    const frontLines =
      text.length - front.content.length > 0
        ? text.slice(0, text.length - front.content.length).split("\n").length
        : 1;
    if (typeof title !== "string" || title.trim() === "") {
      problems.push({
        file,
        line: 1,
        message:
          'front matter: "title" is required (a text), for example:\n---\ntitle: About us\nnav: 1\n---',
      });
      continue;
    }
    if (nav !== undefined && !(typeof nav === "number" && Number.isFinite(nav))) {
      problems.push({
        file,
        line: lineOf(text, "nav:"),
        message: 'front matter: "nav" is the page\'s place in the navigation, a number (1 first)',
      });
      continue;
    }
    if (description !== undefined && typeof description !== "string") {
      problems.push({
        file,
        line: lineOf(text, "description:"),
        message: 'front matter: "description" is a text',
      });
      continue;
    }
    let body: OwnPage["body"];
    const engine = engineOf(rel);
    if (ext === ".md")
      body = (markdown ??= new MarkdownIt({ html: true, linkify: false })).render(front.content);
    else if (engine !== undefined) {
      const compiled = engines.compile(path.resolve(file), front.content, frontLines);
      if (typeof compiled !== "function") {
        problems.push({ ...compiled, file });
        continue;
      }
      body = compiled;
    } else body = front.content;
    pages.push({
      dir: `${parts.join("/")}/`,
      lang,
      title: title.trim(),
      nav: nav ?? null,
      description: description ?? null,
      file,
      body,
    });
  }
  // A language's version stands beside the page it translates: one page, several languages.
  const base = new Set(pages.filter((p) => p.lang === null).map((p) => p.dir));
  for (const page of pages) {
    if (page.lang !== null && !base.has(page.dir))
      problems.push({
        file: page.file,
        message: `no page ${page.dir} outside the language folders for this one to translate: add pages/${page.dir.slice(0, -1)}.md (or another format)`,
      });
  }
  const seen = new Map<string, string>();
  for (const page of pages) {
    const key = `${page.lang ?? ""}:${page.dir}`;
    const earlier = seen.get(key);
    if (earlier !== undefined)
      problems.push({
        file: page.file,
        message: `/${page.dir} is also ${earlier}: keep one file per page`,
      });
    else seen.set(key, page.file);
  }
  return pages;
}

const lineOf = (text: string, needle: string) => {
  const at = text.indexOf(needle);
  return at === -1 ? 1 : text.slice(0, at).split("\n").length;
};

/** An own page in the header's navigation. */
export interface NavLink {
  dir: string;
  title: string;
}

/** The own pages the navigation lists in a language (each page's title in it), by their `nav` number. */
export function navLinks(pages: readonly OwnPage[], code: Language): NavLink[] {
  const order = new Map(
    pages.flatMap((p) => (p.lang === null && p.nav !== null ? [[p.dir, p.nav] as const] : [])),
  );
  if (order.size === 0) return [];
  return pagesFor(pages, code)
    .filter((p) => order.has(p.dir))
    .sort((a, b) => order.get(a.dir)! - order.get(b.dir)! || (a.dir < b.dir ? -1 : 1))
    .map((p) => ({ dir: p.dir, title: p.title }));
}

/** The version of each own page a language's site shows: its own, else the page every language gets. */
export function pagesFor(pages: readonly OwnPage[], lang: Language): OwnPage[] {
  const own = new Map(pages.filter((p) => p.lang === lang).map((p) => [p.dir, p]));
  return pages.filter((p) => p.lang === null).map((p) => own.get(p.dir) ?? p);
}
