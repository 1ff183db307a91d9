import { Parser } from "htmlparser2";
import { closest } from "../../content/suggest.ts";
import { sortProblems, type Problem } from "../../errors.ts";
import { TemplateError, type Engines, type ReadVariable, type Render } from "./engines.ts";
import type { OwnPage } from "./own-pages.ts";
import { SAMPLE_HOME, sampleData } from "./sample.ts";

/**
 * The checks of a site folder's templates, once per build (validate and build alike), before any
 * page is made:
 * - what they include must be a file of `_includes/` (errors, at the include's line);
 * - each is rendered once with sample data (sample.ts): a template that runs past its limits of
 *   time or memory there is an error, as it would be on the first page;
 * - the rules docs/site.md gives overrides ("What an override must keep"): a page kind's content
 *   one `<h1>`, the header a `<header>` with the link home, the footer a `<footer>`, every `<nav>`
 *   a label; an own page's body no `<h1>` of its own (its title is the page's);
 * - the values they read that their data does not have (`{{ site.nme }}`, found by liquidjs's
 *   static analysis), with the name meant when it is close.
 * The rules and the values are warnings (`--strict` makes them errors): Liquid writes an unknown
 * value as nothing, and a page without its landmarks still works.
 */

/** A page kind's part, by its name in `_includes/`, as the messages name its pages. */
const KINDS: Record<string, string> = {
  home: "the home page",
  listing: "listing pages",
  work: "work pages",
  director: "director pages",
  category: "category pages",
  browse: "browse pages (decades, new, leaving)",
  "not-found": "the not-found page",
};

/**
 * Checks the parts (by name) and the own pages' templates: include problems and limits go into
 * `problems`; the warnings are returned.
 */
export function checkTemplates(
  engines: Engines,
  parts: ReadonlyMap<string, Render>,
  pages: readonly OwnPage[],
  problems: Problem[],
): Problem[] {
  const rendered = [
    ...[...parts].map(([part, render]): { part: string | null; render: Render } => ({
      part,
      render,
    })),
    ...pages.flatMap((p) => (typeof p.body === "function" ? [{ part: null, render: p.body }] : [])),
  ];
  for (const { render } of rendered) problems.push(...engines.includeProblems(render));
  if (problems.length > 0) return [];
  const warnings: Problem[] = [];
  const seen = new Set<string>();
  for (const { part, render } of rendered) {
    const file = engines.fileOf(render)!;
    const data = sampleData(part);
    const whose =
      part === null
        ? "an own page's data"
        : Object.hasOwn(KINDS, part)
          ? `the data of ${KINDS[part]}`
          : `the ${part}'s data`;
    for (const warning of unknownValues(engines.variables(render), data, whose)) {
      const key = `${warning.file}:${warning.line}:${warning.message.split(":")[0]}`;
      if (!seen.has(key)) warnings.push(warning);
      seen.add(key);
    }
    let html: string;
    try {
      html = render(data);
    } catch (error) {
      // Any other error depends on the data: the pages' own render reports it.
      if (error instanceof TemplateError && error.limit) problems.push(error.problem);
      continue;
    }
    warnings.push(...landmarks(part, html).map((message) => ({ file, message })));
  }
  // Markdown and HTML pages: their body as it is.
  for (const page of pages)
    if (typeof page.body === "string")
      warnings.push(...landmarks(null, page.body).map((message) => ({ file: page.file, message })));
  return sortProblems(warnings);
}

/** What a rendered part (or, with `part` null, an own page's body) breaks of the documented rules. */
function landmarks(part: string | null, html: string): string[] {
  const found = { h1: 0, header: 0, footer: 0, homeInHeader: false, unlabelled: 0 };
  let inHeader = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "h1") found.h1++;
        if (name === "header") {
          found.header++;
          inHeader++;
        }
        if (name === "footer") found.footer++;
        if (name === "a" && inHeader > 0 && attributes.href === SAMPLE_HOME)
          found.homeInHeader = true;
        const label = (attributes["aria-label"] ?? attributes["aria-labelledby"] ?? "").trim();
        if (name === "nav" && label === "") found.unlabelled++;
      },
      onclosetag(name) {
        if (name === "header") inHeader--;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  const broken: string[] = [];
  if (part === null) {
    if (found.h1 > 0)
      broken.push(
        "an own page's title is its <h1>: start the body's headings at <h2> (## in Markdown)",
      );
  } else if (part === "header") {
    if (found.header === 0)
      broken.push(
        'the header has no <header> element: keep the landmark, with the link home (<a href="{{ site.home }}">)',
      );
    else if (!found.homeInHeader)
      broken.push('the <header> has no link home: add <a href="{{ site.home }}">');
  } else if (part === "footer") {
    if (found.footer === 0) broken.push("the footer has no <footer> element: keep the landmark");
  } else if (found.h1 !== 1)
    broken.push(
      `the content of ${KINDS[part] ?? part} has ${found.h1 === 0 ? "no <h1>" : `${found.h1} <h1>`}: keep one, the page's title (with {{ content | raw }}, the built-in one)`,
    );
  if (found.unlabelled > 0)
    broken.push(
      `${found.unlabelled === 1 ? "a <nav> has" : `${found.unlabelled} <nav> have`} no aria-label: name each list of links, e.g. <nav aria-label="{{ texts.pagesNav }}">`,
    );
  return broken;
}

/** The variables a template reads that its data does not have, as warnings at their lines. */
function unknownValues(
  variables: readonly ReadVariable[],
  data: Record<string, unknown>,
  whose: string,
): Problem[] {
  const warnings: Problem[] = [];
  for (const variable of variables) {
    const miss = missing(variable.path, data);
    if (miss === undefined) continue;
    const shown = `{{ ${written(variable.path)} }}`;
    const parent = written(variable.path.slice(0, miss.at));
    const name = variable.path[miss.at];
    const meant = typeof name === "string" ? closest(name, miss.keys) : undefined;
    const suggestion =
      meant !== undefined
        ? `; did you mean ${written([...variable.path.slice(0, miss.at), meant])}?`
        : miss.keys.length > 0 && miss.keys.length <= 12
          ? ` (${parent === "" ? "it has" : `${parent} has`} ${miss.keys.join(", ")})`
          : "";
    warnings.push({
      file: variable.file,
      line: variable.line,
      message: `${shown}: no such value in ${whose} (it prints nothing)${suggestion}`,
    });
  }
  return warnings;
}

/**
 * Where a variable's path leaves the data: the index of the first segment it does not have, and
 * the names it could have been. Undefined when the path is in the data (or cannot be known before
 * rendering: an index that is itself a variable).
 */
function missing(
  path: ReadVariable["path"],
  data: unknown,
): { at: number; keys: string[] } | undefined {
  let value = data;
  for (let at = 0; at < path.length; at++) {
    const segment = path[at];
    if (segment === null || segment === undefined) return undefined;
    // liquidjs's own properties: `size` of anything with a length or keys, `first`/`last` of a list.
    if (segment === "size" && (typeof value === "string" || typeof value === "object"))
      return undefined;
    if (Array.isArray(value)) {
      if (typeof segment === "number" || segment === "first" || segment === "last") {
        value = value[0];
        continue;
      }
      return { at, keys: ["first", "last", "size"] };
    }
    if (value !== null && typeof value === "object") {
      if (typeof segment === "string" && Object.hasOwn(value, segment)) {
        value = (value as Record<string, unknown>)[segment];
        continue;
      }
      return { at, keys: Object.keys(value) };
    }
    return { at, keys: [] };
  }
  return undefined;
}

/** A variable's path as a template writes it: `site.name`, `works[0].title`, `texts["search.label"]`. */
function written(path: ReadVariable["path"]): string {
  return path
    .map((segment, i) =>
      segment === null
        ? "[…]"
        : typeof segment === "number"
          ? `[${segment}]`
          : /^[A-Za-z_][\w-]*$/.test(segment)
            ? `${i === 0 ? "" : "."}${segment}`
            : `[${JSON.stringify(segment)}]`,
    )
    .join("");
}
