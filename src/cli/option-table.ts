import type { ParseArgsConfig } from "node:util";

/**
 * One command-line option, in citty's shape (`type`, `valueHint`, `default`, `multiple`,
 * `description`): node:util parseArgs' configuration, the `--help` lines, the usage line and the
 * README's option table are all read from it, so that none of them can say something the others
 * do not.
 */
export interface OptionSpec {
  type: "string" | "boolean";
  /** The value's name in the help, the usage line and the README: `--out DIR`. */
  valueHint?: string;
  default?: string | boolean;
  /** Repeatable: the values come back as a list, and the usage line says `[--domain HOST]...`. */
  multiple?: boolean;
  /** Written without brackets in the usage line; the command says so when it is missing. */
  required?: boolean;
  /** The README table's cell, word for word (Markdown allowed); a test compares them. */
  description: string;
  /** The `--help` text, wrapped to the terminal's width; a command may say its own. */
  help: string;
}

export type Options = Record<string, OptionSpec>;

/** The values parseArgs returns for these options, typed from their declaration. */
export type Values<O extends Options> = string extends keyof O
  ? Record<string, string | boolean | string[] | undefined>
  : { -readonly [K in keyof O]: ValueOf<O[K]> };

type ValueOf<S extends OptionSpec> = S extends { type: "boolean" }
  ? S extends { default: boolean }
    ? boolean
    : boolean | undefined
  : S extends { multiple: true }
    ? string[] | undefined
    : S extends { default: string }
      ? string
      : string | undefined;

/** Every option of every command; a command names its own with `pick` (or its own variant). */
export const OPTIONS = {
  content: {
    type: "string",
    valueHint: "DIR",
    default: "content",
    description: "the content folder holding the four CSV files (default `content`)",
    help: "the content folder with the four CSV files (default: content)",
  },
  out: {
    type: "string",
    valueHint: "DIR",
    default: "dist",
    description: "the output folder (default `dist`), replaced atomically",
    help: "the output folder (default: dist); replaced atomically",
  },
  date: {
    type: "string",
    valueHint: "YYYY-MM-DD",
    description: "the build date T (default: `SOURCE_DATE_EPOCH`, else today in UTC)",
    help: "the build date (default: SOURCE_DATE_EPOCH, else today in UTC)",
  },
  domain: {
    type: "string",
    valueHint: "HOST",
    multiple: true,
    description: "only this domain (repeatable); the other domains keep their previous output",
    help: "build only this domain (repeatable); the others keep their output",
  },
  "no-site": {
    type: "boolean",
    default: false,
    description:
      "API, exports, the media the API points at and server files only: no HTML catalogue",
    help: "API, exports and server files only: no HTML catalogue",
  },
  site: {
    type: "string",
    valueHint: "DIR",
    description:
      "the site folder, the library's own look: pages, templates, stylesheet, texts (default `site` beside the content folder; none: the built-in look). See [docs/site.md](docs/site.md#your-own-look)",
    help: "the library's own site folder (default: site beside the content folder)",
  },
  cache: {
    type: "string",
    valueHint: "DIR",
    description:
      "the processed-image cache kept between builds (default `.cache/catalogue`); deploy also keeps copies of the target's records there",
    help: "the processed-image cache (default: .cache/catalogue)",
  },
  strict: {
    type: "boolean",
    default: false,
    description:
      "warnings (a missing cover, an unknown column) are errors: exit 1 before anything is written",
    help: "treat warnings as errors (a missing cover, an unknown column): exit 1 before anything is written, for CI",
  },
  timings: {
    type: "boolean",
    default: false,
    description: "after each build, print when each of its stages started (seconds)",
    help: "after each build, print when each of its stages started (seconds)",
  },
  dir: {
    type: "string",
    valueHint: "DIR",
    default: "dist",
    description: "the built output (default `dist`)",
    help: "the built output (default: dist)",
  },
  port: {
    type: "string",
    valueHint: "N",
    default: "8080",
    description: "the port to listen on (default 8080; `0` picks a free one and prints it)",
    help: "the port (default: 8080; 0 picks a free one, printed on start)",
  },
  host: {
    type: "string",
    valueHint: "ADDR",
    default: "127.0.0.1",
    description: "the address to listen on (default 127.0.0.1)",
    help: "the address to listen on (default: 127.0.0.1)",
  },
  to: {
    type: "string",
    valueHint: "TARGET",
    required: true,
    description: "`s3://bucket/prefix`, a folder, or a file ending in `.zip`, `.tar.gz` or `.tgz`",
    help: "s3://bucket/prefix, a folder, or a .zip / .tar.gz file (required)",
  },
  endpoint: {
    type: "string",
    valueHint: "URL",
    description: "an S3-compatible store (MinIO, R2, Ceph…); path-style addressing",
    help: "an S3-compatible store (path-style addressing), e.g. http://127.0.0.1:9000",
  },
  "dry-run": {
    type: "boolean",
    default: false,
    description: "print every planned upload and delete; change nothing at the target",
    help: "list every planned upload (new, changed, headers) and delete; change nothing",
  },
  "max-deletes": {
    type: "string",
    valueHint: "N",
    description:
      "allow at most N deletes (the default guard: [publishing.md](docs/publishing.md#the-delete-guard))",
    help: "allow at most N deletes",
  },
  verify: {
    type: "boolean",
    default: false,
    description: "list the whole target instead of trusting its records, and repair it",
    help: "list the whole target instead of trusting its records; repair what is missing or differs, remove what neither the build nor a record knows",
  },
  "prune-media": {
    type: "boolean",
    default: false,
    description: "remove the media no domain uses from the target's media folders",
    help: "then remove the media no domain uses from every media folder of the target (what --domain publishes leave in folders shared with other domains): reads every domain's record first, never removes media written after it started",
  },
  listen: {
    type: "string",
    valueHint: "ADDR:PORT",
    default: "127.0.0.1:8080",
    description: "where nginx or Caddy listens (default 127.0.0.1:8080)",
    help: "the address and port to listen on (default: 127.0.0.1:8080)",
  },
  "config-domain": {
    type: "string",
    valueHint: "HOST",
    description:
      "netlify: the domain the rules are for; nginx `--snippets`: the host whose server block they are for (default: the first domain)",
    help: "netlify: the domain the rules are for; nginx --snippets: the host of the server block (default: the first domain)",
  },
  "config-out": {
    type: "string",
    valueHint: "FOLDER",
    description: "netlify, workers, cloudfront: the folder to write the files into",
    help: "netlify, workers, cloudfront: where to write the files",
  },
  snippets: {
    type: "string",
    valueHint: "FOLDER",
    description:
      "write `http.conf` (for nginx's http block) and `server.conf` (for one host's server block) into FOLDER instead of printing a whole configuration",
    help: "write http.conf (maps, for the http block) and server.conf (locations, for the server block of --domain's host) into FOLDER",
  },
  r2: {
    type: "string",
    valueHint: "BUCKET[/PREFIX]",
    description:
      "workers: read the files from the R2 bucket `catalogue publish --to s3://BUCKET/PREFIX` writes to, instead of static assets",
    help: "workers: read the files from the R2 bucket catalogue publish writes to (--to s3://BUCKET/PREFIX) instead of static assets",
  },
  name: {
    type: "string",
    valueHint: "NAME",
    default: "catalogue",
    description: "workers: the Worker's name (default `catalogue`)",
    help: "workers: the Worker's name (default: catalogue)",
  },
} as const satisfies Options;

type Declared = typeof OPTIONS;

/** A command's options, under the flag each is given on the command line. */
export function pick<K extends keyof Declared>(...names: K[]): { [N in K]: Declared[N] } {
  return Object.fromEntries(names.map((name) => [name, OPTIONS[name]])) as {
    [N in K]: Declared[N];
  };
}

/** The configuration node:util parseArgs reads. */
export function parseConfig(options: Options): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    Object.entries(options).map(([flag, spec]) => [
      flag,
      {
        type: spec.type,
        ...(spec.multiple === true && { multiple: true }),
        ...(spec.default !== undefined && { default: spec.default }),
      },
    ]),
  );
}

/** `--out DIR`: the flag as the help, the usage line and the README write it. */
export function flagText(flag: string, spec: OptionSpec): string {
  return spec.valueHint === undefined ? `--${flag}` : `--${flag} ${spec.valueHint}`;
}

/** The help's column the texts start at, and the width they wrap to. */
const COLUMN = 23;
const WIDTH = 100;

/** Help lines, `  --out DIR            the output folder…`, the text wrapped at the terminal's width. */
export function helpLines(entries: [name: string, text: string][], width = WIDTH): string {
  return entries
    .map(([name, text]) => {
      const lines = wrap(text, width - COLUMN);
      const first = `  ${name}`.padEnd(COLUMN - 1);
      return [`${first} ${lines[0] ?? ""}`, ...lines.slice(1).map((l) => " ".repeat(COLUMN) + l)]
        .join("\n")
        .trimEnd();
    })
    .join("\n");
}

/** The help lines of a command's options, in their declared order. */
export function optionLines(options: Options, width = WIDTH): string {
  return helpLines(
    Object.entries(options).map(([flag, spec]) => [flagText(flag, spec), spec.help]),
    width,
  );
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** One way to call a command: its positional words, then the options it names, in that order. */
export interface UsageForm {
  words?: string;
  /** The options shown (default: all, in their declared order). */
  options?: string[];
  /** Those this form needs, shown without brackets (default: the options declared `required`). */
  required?: string[];
}

/** `catalogue build [--content DIR] … [--domain HOST]...`: required options without brackets. */
export function usageLine(command: string, options: Options, form: UsageForm = {}): string {
  const parts = [`catalogue ${command}`];
  if (form.words !== undefined) parts.push(form.words);
  for (const flag of form.options ?? Object.keys(options)) {
    const spec = options[flag];
    if (spec === undefined) throw new Error(`usage of ${command}: no option --${flag}`);
    const text = flagText(flag, spec);
    parts.push(
      ((form.required?.includes(flag) ?? spec.required === true) ? text : `[${text}]`) +
        (spec.multiple === true ? "..." : ""),
    );
  }
  return parts.join(" ");
}
