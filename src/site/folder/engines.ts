import path from "node:path";
import { filters, Liquid, LiquidError, toValueSync, type Tag, type Template } from "liquidjs";
import { formatProblem, UserError, type Problem } from "../../errors.ts";
import { XML_FORBIDDEN } from "../../util/xml-chars.ts";

/**
 * The template language of a library's `site/` folder: Liquid (liquidjs, the engine Eleventy
 * brings), used by its public API: each template is compiled once per build and rendered
 * synchronously per page. Output is escaped by default (`outputEscape`), as every text from the
 * CSVs must stay; markup the program hands over already escaped (`content`, the built-in parts)
 * is written with `| raw`.
 *
 * A template is the library's markup, never code, and runs within bounds (docs/security.md):
 * - only own properties of the data are read (`ownPropertyOnly`): no `constructor`, no prototype;
 * - includes and layouts are read from `site/_includes/` alone (liquidjs compares the real path
 *   of the folder with the real path of the file, links resolved);
 * - each parse is limited in length, each render in time and in memory (the characters and items
 *   that filters, ranges and loops make), and the renders of one build share a time budget.
 *
 * Nunjucks, the other engine Eleventy brings, is refused: it has no sandbox (its documentation
 * says it is not safe to run user-defined templates; its member lookup reaches the Function
 * constructor), no time or memory limit, and a loader that follows links out of its folder.
 */

/** The engine of a template file, by its extension. */
export type Engine = "liquid";

/** A compiled template: renders its data to HTML or throws a UserError naming the user's file and line. */
export type Render = (data: Record<string, unknown>) => string;

const TEMPLATE_ENGINES: Record<string, Engine> = { ".liquid": "liquid" };

/** The bounds of a site folder's templates (docs/site.md, "Limits"). */
export interface Limits {
  /** Characters parsed per template, its includes counted. */
  parse: number;
  /** Milliseconds of one render (one part of one page). */
  renderMs: number;
  /** Characters and items that one render may make (liquidjs counts ranges, `append`, `join`, `split`…). */
  memory: number;
  /**
   * The template time of a whole build: this, plus `earnedMs` for each render. A build of many
   * pages each close to the limit of one render still ends; a large catalogue's templates, far
   * quicker a page than one render's limit, never come near it.
   */
  buildMs: number;
  earnedMs: number;
}

export const LIMITS: Limits = {
  parse: 1_000_000,
  renderMs: 2_000,
  memory: 10_000_000,
  buildMs: 60_000,
  earnedMs: 1,
};

/** A variable a template reads that is not its own (`{{ site.name }}`), where it is written. */
export interface ReadVariable {
  /** Property names and indexes; null where an index is itself a variable (`texts[key]`). */
  path: (string | number | null)[];
  file: string;
  line: number;
}

/** A template's error while rendering: where, what, and whether a limit stopped it. */
export class TemplateError extends UserError {
  constructor(
    readonly problem: Problem,
    /** A limit of time or memory (the same data would meet it again), not the data's error. */
    readonly limit: boolean,
  ) {
    super(formatProblem(problem));
  }
}

interface Compiled {
  templates: Template[];
  file: string;
  firstLine: number;
}

/** The engines of one `site/` folder for one build: includes are looked up in its `_includes/`. */
export class Engines {
  private liquid: Liquid | null = null;
  private readonly compiled = new Map<Render, Compiled>();
  /** Template time left in this build, in milliseconds. */
  private left: number;

  constructor(
    private readonly includes: string,
    /** How a path is named in messages (relative to the working folder, as the user wrote it). */
    private readonly shown: (file: string) => string,
    private readonly limits: Limits = LIMITS,
  ) {
    this.left = limits.buildMs;
  }

  private engine(): Liquid {
    return (this.liquid ??= new Liquid({
      root: [this.includes],
      partials: [this.includes],
      layouts: [this.includes],
      extname: ".liquid",
      outputEscape: escapeOutput,
      ownPropertyOnly: true,
      cache: true,
      strictFilters: true,
      parseLimit: this.limits.parse,
    }));
  }

  /**
   * Compiles a template, or returns the problem that stops it (the build reports every one at
   * once). `firstLine` is the template's first line in its file (after front matter).
   */
  compile(file: string, text: string, firstLine = 1): Render | Problem {
    const liquid = this.engine();
    const where = this.shown(file);
    let templates: Template[];
    try {
      templates = liquid.parse(text, file);
    } catch (error) {
      return this.problem(error, file, firstLine);
    }
    const render: Render = (data) => {
      const { renderMs, memory, earnedMs } = this.limits;
      const allowed = Math.min(renderMs, Math.max(0, this.left) + earnedMs);
      const started = performance.now();
      try {
        return liquid.renderSync(templates, data, {
          renderLimit: allowed,
          memoryLimit: memory,
        }) as string;
      } catch (error) {
        const { file: at, line, message, limit } = this.located(error, file, firstLine, allowed);
        throw new TemplateError(
          { file: at ?? where, ...(line !== undefined ? { line } : {}), message },
          limit,
        );
      } finally {
        this.left += earnedMs - (performance.now() - started);
      }
    };
    this.compiled.set(render, { templates, file, firstLine });
    return render;
  }

  /** The file of a compiled template, as messages name it. */
  fileOf(render: Render): string | undefined {
    const compiled = this.compiled.get(render);
    return compiled === undefined ? undefined : this.shown(compiled.file);
  }

  /**
   * What a template includes that cannot be read, wherever the include stands (an untaken
   * branch too): a file missing from `_includes/`, a path out of it, a partial that does not
   * parse. Each at the line of its `{% include %}` or `{% render %}`.
   */
  includeProblems(render: Render): Problem[] {
    const compiled = this.compiled.get(render);
    if (compiled === undefined) return [];
    const problems: Problem[] = [];
    const seen = new Set<string>();
    const visit = (templates: Template[], file: string, firstLine: number) => {
      for (const template of templates) {
        const partial = safely(() => template.partialScope?.());
        if (partial !== undefined) {
          if (seen.has(partial.name)) continue;
          seen.add(partial.name);
          let children: Template[];
          try {
            children = toValueSync<Template[]>(template.children!(true, true));
          } catch (error) {
            problems.push(this.includeProblem(error, template, partial.name, file, firstLine));
            continue;
          }
          const partialFile = children[0]?.token.file ?? file;
          visit(children, partialFile, partialFile === file ? firstLine : 1);
        } else if (template.children !== undefined) {
          const children = safely(() => toValueSync<Template[]>(template.children!(false, true)));
          if (children !== undefined) visit(children, file, firstLine);
        }
      }
    };
    visit(compiled.templates, compiled.file, compiled.firstLine);
    return problems;
  }

  /**
   * The variables a template (and what it includes) reads from its data, by liquidjs's static
   * analysis: names it assigns or loops over are left out.
   */
  variables(render: Render): ReadVariable[] {
    const compiled = this.compiled.get(render);
    if (compiled === undefined) return [];
    const liquid = this.engine();
    const analysis =
      safely(() => liquid.analyzeSync(compiled.templates, { partials: true })) ??
      safely(() => liquid.analyzeSync(compiled.templates, { partials: false }));
    if (analysis === undefined) return [];
    return Object.values(analysis.globals)
      .flat()
      .map((variable) => {
        const file = variable.location.file ?? compiled.file;
        const offset = file === compiled.file ? compiled.firstLine - 1 : 0;
        return {
          path: variable.segments.map((s) => (typeof s === "object" ? null : s)),
          file: this.shown(file),
          line: variable.location.row + offset,
        };
      });
  }

  private includeProblem(
    error: unknown,
    tag: Template,
    name: string,
    file: string,
    firstLine: number,
  ): Problem {
    // A partial that was found but does not parse: its own file and line.
    if (LiquidError.is(error) && error.token.file !== undefined && error.token.file !== file)
      return this.problem(error, file, firstLine);
    const [row] = tag.token.getPosition();
    return {
      file: this.shown(file),
      line: row! + firstLine - 1,
      message: `{% ${(tag as Tag).name ?? "include"} "${name}" %}: no such file in ${this.shown(this.includes)}/ (an include reads only the files there, and no link out of it)`,
    };
  }

  private problem(error: unknown, file: string, firstLine: number): Problem {
    const { file: at, line, message } = this.located(error, file, firstLine, this.limits.renderMs);
    return { file: at ?? this.shown(file), ...(line !== undefined ? { line } : {}), message };
  }

  /**
   * The file, line and words of an engine's error: where liquidjs's token says (a partial's own
   * file for an error inside it), else the template's; the limits said in the user's terms.
   */
  private located(
    error: unknown,
    file: string,
    firstLine: number,
    allowed: number,
  ): { file?: string; line?: number; message: string; limit: boolean } {
    const text = error instanceof Error ? error.message : String(error);
    let at: string | undefined;
    let line: number | undefined;
    if (LiquidError.is(error) && error.token !== undefined) {
      const tokenFile = error.token.file;
      const [row] = error.token.getPosition();
      if (tokenFile !== undefined && tokenFile !== file) at = this.shown(tokenFile);
      if (row !== undefined) line = row + (at === undefined ? firstLine - 1 : 0);
    } else {
      const found = /,?\s*line:(\d+), col:\d+/.exec(text);
      if (found) line = Number(found[1]) + firstLine - 1;
    }
    const limit = limitMessage(text, allowed, this.limits);
    return {
      ...(at !== undefined ? { file: at } : {}),
      ...(line !== undefined ? { line } : {}),
      message: limit ?? cleaned(text),
      limit: limit !== undefined,
    };
  }
}

/** The words of an error without the file and position liquidjs appends (the message names them). */
function cleaned(text: string): string {
  return text
    .replace(/,?\s*file:.*?(?=, line:\d+, col:\d+|$)/, "")
    .replace(/,?\s*line:\d+, col:\d+/, "")
    .replace(/^E[A-Z]+: /, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A limit's error said as what the template did. */
function limitMessage(text: string, allowed: number, limits: Limits): string | undefined {
  if (/template render limit exceeded/.test(text))
    return allowed < limits.renderMs
      ? `the site's templates ran past their time for this build (${limits.buildMs / 1000} s, and ${limits.earnedMs} ms more for each part of each page): a template is too slow`
      : `the template ran past its limit of ${limits.renderMs / 1000} s for one page: a loop too long?`;
  if (/memory alloc limit exceeded/.test(text))
    return `the template went past its limit of ${limits.memory.toLocaleString("en")} characters or items for one page: a loop or a text too large`;
  if (/parse length limit exceeded/.test(text))
    return `the template is longer than its limit of ${limits.parse.toLocaleString("en")} characters (its includes counted)`;
  return undefined;
}

/** The value, or undefined when computing it throws (an analysis liquidjs cannot make). */
function safely<T>(compute: () => T): T | undefined {
  try {
    return compute();
  } catch {
    return undefined;
  }
}

/**
 * Liquid's own escape (which counts the text against the render's memory limit), then the
 * characters XML forbids dropped, as site/html.ts's escape does for every text the program writes.
 */
const liquidEscape = filters["escape"] as (this: unknown, value: unknown) => string;
function escapeOutput(this: unknown, value: unknown): string {
  return liquidEscape.call(this, value).replace(XML_FORBIDDEN, "");
}

/** Markup the program made (already escaped), as templates get it: Liquid writes it with `| raw`. */
export const safe = (markup: string): unknown => markup;

export const engineOf = (file: string): Engine | undefined => TEMPLATE_ENGINES[path.extname(file)];

/** Nunjucks, refused: the file's message (docs/site.md, "Templates"). */
export const isNunjucks = (file: string): boolean => path.extname(file) === ".njk";
export const nunjucksRefused = (file: string): string =>
  `Nunjucks templates can run code on the machine that builds (Nunjucks has no sandbox): write it in Liquid (${path.basename(file, ".njk")}.liquid); docs/site.md#templates`;
