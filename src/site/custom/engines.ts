import path from "node:path";
import { Liquid } from "liquidjs";
import nunjucks, { type Environment } from "nunjucks";
import { UserError, type Problem } from "../../errors.ts";

/**
 * The template languages of a library's `site/` folder, through the engines Eleventy brings
 * (liquidjs, Nunjucks) used by their public APIs: each template is compiled once per build and
 * rendered synchronously per page (Eleventy's RenderPlugin would compile it on every call).
 * Output is escaped by default, as every text from the CSVs must stay: Liquid's `outputEscape`,
 * Nunjucks' `autoescape`. Markup the program hands over already escaped (`content`, the built-in
 * parts) is marked safe for Nunjucks and is written with `| raw` in Liquid.
 */

export type Engine = "liquid" | "njk";

/** A compiled template: renders its data to HTML or throws a UserError naming the user's file and line. */
export type Render = (data: Record<string, unknown>) => string;

export const TEMPLATE_ENGINES: Record<string, Engine> = { ".liquid": "liquid", ".njk": "njk" };

/** The engines of one `site/` folder: includes are looked up in its `_includes/`. */
export class Engines {
  private liquid: Liquid | null = null;
  private nunjucks: Environment | null = null;

  constructor(
    private readonly includes: string,
    /** How a path is named in messages (relative to the working folder, as the user wrote it). */
    private readonly shown: (file: string) => string,
  ) {}

  /** Compiles a template, or returns the problem that stops it (the build reports every one at once). */
  compile(engine: Engine, file: string, text: string, firstLine = 1): Render | Problem {
    const where = this.shown(file);
    try {
      if (engine === "liquid") {
        const liquid = (this.liquid ??= new Liquid({
          root: [this.includes],
          extname: ".liquid",
          outputEscape: "escape",
          cache: true,
          strictFilters: true,
        }));
        const template = liquid.parse(text, file);
        return (data) => {
          try {
            return liquid.renderSync(template, data) as string;
          } catch (error) {
            throw new UserError(this.message(error, where, firstLine));
          }
        };
      }
      const env = (this.nunjucks ??= new nunjucks.Environment(
        new nunjucks.FileSystemLoader(this.includes, { noCache: false }),
        { autoescape: true },
      ));
      const template = nunjucks.compile(text, env, file, true);
      return (data) => {
        try {
          return template.render(data);
        } catch (error) {
          throw new UserError(this.message(error, where, firstLine));
        }
      };
    } catch (error) {
      const { line, message } = located(error, firstLine);
      return { file: where, ...(line !== undefined ? { line } : {}), message };
    }
  }

  private message(error: unknown, where: string, firstLine: number): string {
    const { line, message } = located(error, firstLine);
    return `${where}${line !== undefined ? `:${line}` : ""}: ${message}`;
  }
}

/**
 * The line and the words of an engine's error. Liquid says `line:N, col:M`, Nunjucks `[Line N,
 * Column M]` (from 0 in some errors); both prefix the file, which the message already names.
 * `firstLine` is the template's first line in its file (after front matter).
 */
function located(error: unknown, firstLine: number): { line?: number; message: string } {
  const text = error instanceof Error ? error.message : String(error);
  const liquid = /,?\s*line:(\d+), col:\d+/.exec(text);
  const njk = /\[Line (\d+), Column \d+\]/.exec(text);
  const line = liquid ? Number(liquid[1]) : njk ? Number(njk[1]) + 1 : undefined;
  const message = text
    .replace(/,?\s*file:[^,]+/, "")
    .replace(/,?\s*line:\d+, col:\d+/, "")
    .replace(/\([^)]*\)\s*(\[Line \d+, Column \d+\])?\s*/g, "")
    .replace(/Template render error:\s*/g, "")
    .replace(/^E[A-Z]+: /, "")
    .replace(/\s+/g, " ")
    .trim();
  return { ...(line !== undefined ? { line: line + firstLine - 1 } : {}), message };
}

/** Markup the program made (already escaped): passed to Nunjucks as safe, to Liquid as text to write with `| raw`. */
export const safe = (markup: string): unknown => new nunjucks.runtime.SafeString(markup);

export const engineOf = (file: string): Engine | undefined => TEMPLATE_ENGINES[path.extname(file)];
