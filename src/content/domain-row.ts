import { z } from "zod";
import { MARC_ORG_CODE } from "../util/marc-org-code.ts";
import { HOST_PATTERN, PATH_SEGMENT } from "../util/server-values.ts";
import { brandOf, cssColor } from "./brand-columns.ts";
import {
  LANGUAGES,
  ORDERINGS,
  imagePath,
  intBetween,
  lineOfText,
  oneLine,
  required,
  show,
  type Language,
} from "./cells.ts";
import { LIMITS } from "./row-limits.ts";

/**
 * A row of domains.csv (docs/interface.md#input): a library's host, its URLs (which reach every
 * server's configuration, so checked as every server reads them), its languages and its brand.
 */

// A domain is a host name as clients send it in `Host` (no port, lowercase); it also names a folder of the output.

const httpUrl = () =>
  required().transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({
        code: "custom",
        message: `expected an absolute http(s) URL, got ${show(text)}`,
      });
      return z.NEVER;
    }
    if (
      !/^https?:$/.test(url.protocol) ||
      url.username ||
      url.password ||
      url.search ||
      url.hash ||
      !HOST_PATTERN.test(url.hostname)
    ) {
      ctx.addIssue({
        code: "custom",
        message: `expected an http(s) URL without credentials, query or fragment, got ${show(text)}`,
      });
      return z.NEVER;
    }
    if (
      url.pathname.split("/").some((segment) => segment.startsWith("_") || segment.startsWith("."))
    ) {
      ctx.addIssue({
        code: "custom",
        message: `path segments must not start with "_" or "." (they are reserved), got ${show(text)}`,
      });
      return z.NEVER;
    }
    // Links are built by appending paths, so the stored form never ends with a slash.
    return url.href.replace(/\/+$/, "");
  });

/** The authority of a URL as written: what its path follows. */
const AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*/i;

/**
 * A base_url or media_url: its host and path go into every server's configuration, so both are
 * what every server matches literally (util/server-values.ts). Checked on the text as written:
 * the URL parser would turn `\` into `/`, resolve `..`, percent-encode braces and keep a bare `?`
 * or `#` that then ends every link.
 */
const servedUrl = () =>
  required().transform((text, ctx) => {
    const refuse = (message: string) => {
      ctx.addIssue({ code: "custom", message: `${message}, got ${show(text)}` });
      return z.NEVER;
    };
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return refuse("expected an absolute http(s) URL");
    }
    if (
      !/^https?:$/.test(url.protocol) ||
      url.username ||
      url.password ||
      /[?#]/.test(text) ||
      !HOST_PATTERN.test(url.hostname)
    ) {
      return refuse("expected an http(s) URL without credentials, query or fragment");
    }
    if (url.port === "0") return refuse("port 0 is no port a server listens on");
    const path = text.replace(AUTHORITY, "");
    const segments = path.split("/").slice(1);
    if (segments.at(-1) === "") segments.pop(); // one trailing slash
    if (segments.some((segment) => segment.startsWith("_") || segment.startsWith("."))) {
      return refuse(`path segments must not start with "_" or "." (they are reserved)`);
    }
    if (segments.includes(""))
      return refuse(`an empty path segment ("//") is not a path a server can serve`);
    // A path that does not start with "/" starts with a backslash, which the parser read as one.
    const odd =
      path === "" || path.startsWith("/")
        ? segments.find((segment) => !PATH_SEGMENT.test(segment))
        : path;
    if (odd !== undefined) {
      return refuse(
        `the path segment ${show(odd)} cannot be served the same by every server: letters, digits, ".", "_", "~" and "-" only (no ";", "$", quotes, braces, spaces, "%" escapes or other characters)`,
      );
    }
    return url.href.replace(/\/+$/, "");
  });

const locale = () =>
  required().refine(
    (text) => {
      try {
        return Intl.getCanonicalLocales(text).length === 1;
      } catch {
        return false;
      }
    },
    { error: (iss) => `expected a language tag like "es" or "en-GB", got ${show(iss.input)}` },
  );

/** The other languages a domain's site is offered in: language tags separated by spaces. */
const languageList = () =>
  required().transform((text, ctx) => {
    const tags: string[] = [];
    for (const word of text.split(/\s+/).filter(Boolean)) {
      let canonical: string[] = [];
      try {
        canonical = Intl.getCanonicalLocales(word);
      } catch {
        // reported below
      }
      if (canonical.length !== 1)
        ctx.addIssue({
          code: "custom",
          message: `expected language tags like "es" or "en-GB" separated by spaces, got ${show(word)}`,
        });
      else tags.push(canonical[0]!);
    }
    return tags;
  });

/** The placeholders of `watch_url`, and what they stand for. */
export const WATCH_PLACEHOLDERS = ["id", "slug"] as const;

/**
 * Where to watch or borrow a work: a URL template whose `{id}` and `{slug}` are replaced by each
 * work's (URL-encoded, src/site/model.ts). At least one of them is required: a link to the same
 * page from every work would not lead to the work. Placeholders stand in the path, query or
 * fragment, never in the host.
 */
const urlTemplate = () =>
  lineOfText().superRefine((text, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: "custom", message });
    const names = [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
    const unknown = names.filter(
      (name) => !(WATCH_PLACEHOLDERS as readonly string[]).includes(name),
    );
    if (unknown.length > 0)
      return problem(`unknown placeholder {${unknown[0]}}: use {id} and {slug}, got ${show(text)}`);
    if (names.length === 0)
      return problem(
        `expected {id} or {slug} in the URL, so that each work links to its own page, got ${show(text)}`,
      );
    const probe = text.replace(/\{(id|slug)\}/g, "1");
    if (/[{}\s]/.test(probe))
      return problem(
        `expected a URL with {id} or {slug} and no other braces or spaces, got ${show(text)}`,
      );
    let url: URL;
    try {
      url = new URL(probe);
    } catch {
      return problem(
        `expected an absolute http(s) URL like "https://films.example.org/watch/{id}/{slug}", got ${show(text)}`,
      );
    }
    if (
      !/^https?:$/.test(url.protocol) ||
      url.username ||
      url.password ||
      !HOST_PATTERN.test(url.hostname)
    ) {
      return problem(`expected an absolute http(s) URL without credentials, got ${show(text)}`);
    }
    if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\{/i.test(text))
      return problem(
        `placeholders belong in the path or the query, not in the host, got ${show(text)}`,
      );
  });

/** The domain's name in each of the other languages of its site (`name_ca`, …). */
const translatedNames = Object.fromEntries(
  LANGUAGES.map((lang) => [`name_${lang}`, oneLine().nullable()]),
) as unknown as Record<`name_${Language}`, z.ZodNullable<ReturnType<typeof oneLine>>>;

/** A work is leaving while available_until - T < leaving_days; this when the column is empty. */
export const LEAVING_DAYS = 30;

const marcOrgCode = () =>
  required().regex(MARC_ORG_CODE, {
    error: (iss) =>
      `expected a MARC organization code like "SpMaBN" (a letter, then letters, digits, hyphens or colons, at most 16), got ${show(iss.input)}`,
  });
/** A source code of MARC's lists (`local`, `lcgft`, `gsafd`): 655's $2. */
const marcSourceCode = () =>
  required().regex(/^[a-z][a-z0-9-]{0,31}$/, {
    error: (iss) =>
      `expected a MARC genre/form source code like "lcgft" or "local" (lowercase letters, digits and hyphens), got ${show(iss.input)}`,
  });

/**
 * What a domain's row adds for a site in several languages; absent from a domain in one language,
 * so that its description (and every key made of it) is what it was before these columns.
 */
export interface DomainLanguages {
  /** The other languages of its site, canonical tags in the order written. */
  languages?: string[];
  /** Its name in some of them. */
  names?: Partial<Record<Language, string>>;
}

export const domainRow = z
  .object({
    domain: required().regex(HOST_PATTERN, {
      error: (iss) =>
        `expected a lowercase host name like "biblioteca.example.org" (no scheme, port or path), got ${show(iss.input)}`,
    }),
    name: oneLine(),
    base_url: servedUrl().nullable(),
    media_url: servedUrl().nullable(),
    locale: locale().nullable(),
    default_ordering: z
      .enum(ORDERINGS, {
        error: (iss) => `expected one of ${ORDERINGS.join(", ")}, got ${show(iss.input)}`,
      })
      .nullable(),
    new_days: intBetween(LIMITS.days).nullable(),
    leaving_days: intBetween(LIMITS.days).nullable(),
    export_window_days: intBetween(LIMITS.days).nullable(),
    languages: languageList().nullable(),
    ...translatedNames,
    watch_url: urlTemplate().nullable(),
    marc_org_code: marcOrgCode().nullable(),
    marc_genre_source: marcSourceCode().nullable(),
    logo: imagePath().nullable(),
    home_url: httpUrl().nullable(),
    theme_color: cssColor().nullable(),
  })
  .transform((row, ctx) => {
    const baseUrl = row.base_url ?? `https://${row.domain}`;
    const portProblem = mediaPortProblem(baseUrl, row.media_url);
    if (portProblem !== null) {
      ctx.addIssue({
        code: "custom",
        path: [row.media_url === null ? "base_url" : "media_url"],
        message: portProblem,
      });
      return z.NEVER;
    }
    return {
      domain: row.domain,
      name: row.name,
      base_url: baseUrl,
      media_url: row.media_url ?? `${baseUrl}/media`,
      locale: row.locale ?? "es",
      default_ordering: row.default_ordering ?? "name",
      new_days: row.new_days ?? 30,
      export_window_days: row.export_window_days ?? 30,
      ...languagesOf(row),
      // Absent when empty, as the languages: a domain without it is described as before the column.
      ...(row.watch_url !== null ? { watch_url: row.watch_url } : {}),
      ...(row.leaving_days !== null ? { leaving_days: row.leaving_days } : {}),
      ...(row.marc_org_code !== null ? { marc_org_code: row.marc_org_code } : {}),
      ...(row.marc_genre_source !== null ? { marc_genre_source: row.marc_genre_source } : {}),
      ...brandOf(row),
    };
  });

/**
 * Why media at this URL (written, or the default under base_url) could not be served, or null:
 * the configurations tell hosts apart by name alone (a request's port is not looked at) and keep
 * media under their host, so media behind a port has no server block, site or folder that answers.
 */
function mediaPortProblem(baseUrl: string, mediaUrl: string | null): string | null {
  const port = new URL(mediaUrl ?? baseUrl).port;
  if (port === "") return null;
  return mediaUrl === null
    ? `the media go under base_url by default (${show(`${baseUrl}/media`)}), and media behind a port (:${port}) cannot be served: add a media_url without a port`
    : `media behind a port (:${port}) cannot be served: the servers' configurations answer media by host name, on the port they listen on (--listen); write media_url without a port, got ${show(mediaUrl)}`;
}

function languagesOf(
  row: { languages: string[] | null } & Record<`name_${Language}`, string | null>,
): DomainLanguages {
  const names = Object.fromEntries(
    LANGUAGES.flatMap((lang) =>
      row[`name_${lang}`] !== null ? [[lang, row[`name_${lang}`]]] : [],
    ),
  );
  return {
    ...(row.languages?.length ? { languages: row.languages } : {}),
    ...(Object.keys(names).length > 0 ? { names } : {}),
  };
}
export type Domain = z.infer<typeof domainRow>;
