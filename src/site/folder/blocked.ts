import { createHash } from "node:crypto";
import { Parser } from "htmlparser2";
import type { Problem } from "../../errors.ts";
import { allows, HASH_SOURCE, type PolicySources } from "../../web/policy.ts";

/**
 * What a library's templates, pages and stylesheets load, checked against the pages' policy
 * before anything is built: whatever the policy would block in a browser (an iframe of a video
 * site, an analytics script, an inline script or style) is a warning naming the file, the line
 * and the setting that would allow it, so nothing the library writes is blocked silently. URLs
 * written with template expressions are not known until rendered and are left alone.
 */

/** Something a page would load (or run, for inline code), where the library wrote it. */
export interface Reference {
  file: string;
  line: number;
  /** The policy directive that governs it. */
  directive: string;
  /** The URL as written; null for inline code. */
  url: string | null;
  /** How it was written, for the message: `<iframe src="…">`. */
  shown: string;
  /** Inline code's text (scripts and style elements, which a hash can allow). */
  inline?: string;
  /** Why it is blocked whatever the setting says (an inline style attribute, a plugin). */
  always?: string;
}

/** A template's, a page's or a stylesheet's references, by the kind of file. */
export function referencesIn(file: string, text: string): Reference[] {
  if (file.endsWith(".css")) return cssReferences(file, text);
  const found = htmlReferences(file, text);
  if (file.endsWith(".md")) {
    // Markdown's images: ![alt](url "title")
    for (const m of text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g)) {
      found.push({
        file,
        line: lineAt(text, m.index),
        directive: "img-src",
        url: m[1]!,
        shown: m[0] + ")",
      });
    }
  }
  return found;
}

/** Element → attribute → directive, for what an element loads. */
const LOADS: Record<string, Record<string, string>> = {
  script: { src: "script-src" },
  img: { src: "img-src", srcset: "img-src" },
  input: { src: "img-src" },
  iframe: { src: "frame-src" },
  frame: { src: "frame-src" },
  video: { src: "media-src", poster: "img-src" },
  audio: { src: "media-src" },
  track: { src: "media-src" },
  form: { action: "form-action" },
  base: { href: "base-uri" },
};

function htmlReferences(file: string, text: string): Reference[] {
  const found: Reference[] = [];
  const open: string[] = [];
  let inline: { name: string; line: number; text: string } | null = null;
  const parser: Parser = new Parser(
    {
      onopentag(name, attributes) {
        const line = lineAt(text, parser.startIndex);
        const add = (directive: string, url: string, attribute: string) =>
          found.push({ file, line, directive, url, shown: `<${name} ${attribute}="${url}">` });
        for (const [attribute, value] of Object.entries(attributes)) {
          if (/^on[a-z]+$/.test(attribute))
            found.push({
              file,
              line,
              directive: "script-src",
              url: null,
              shown: `<${name} ${attribute}="…">`,
              always:
                "event handler attributes are inline scripts: attach the handler from a script file under site/assets/",
            });
          if (attribute === "style" && value.trim() !== "")
            found.push({
              file,
              line,
              directive: "style-src",
              url: null,
              shown: `<${name} style="${value}">`,
              always:
                "style attributes are inline styles: give the element a class and style it in site/assets/site.css",
            });
          if (
            (attribute === "href" || attribute === "src" || attribute === "action") &&
            /^\s*javascript:/i.test(value)
          ) {
            found.push({
              file,
              line,
              directive: "script-src",
              url: null,
              shown: `<${name} ${attribute}="${value}">`,
              always:
                "javascript: URLs are inline scripts: attach a handler from a script file under site/assets/",
            });
          }
        }
        if (name === "object" || name === "embed" || name === "applet") {
          found.push({
            file,
            line,
            directive: "object-src",
            url: null,
            shown: `<${name}>`,
            always:
              "plugins are never allowed (object-src 'none'): use <video>, <audio> or <iframe>",
          });
        }
        const parent = open.at(-1);
        if (name === "source") {
          const directive = parent === "picture" ? "img-src" : "media-src";
          if (attributes.src !== undefined) add(directive, attributes.src, "src");
          for (const url of srcsetUrls(attributes.srcset)) add("img-src", url, "srcset");
        } else if (name === "link") {
          const rel = (attributes.rel ?? "").toLowerCase().split(/\s+/);
          const directive = rel.includes("stylesheet")
            ? "style-src"
            : rel.includes("icon") || rel.includes("apple-touch-icon")
              ? "img-src"
              : rel.includes("manifest")
                ? "manifest-src"
                : rel.includes("preload") && attributes.as === "font"
                  ? "font-src"
                  : null;
          if (directive !== null && attributes.href !== undefined)
            add(directive, attributes.href, "href");
        } else {
          for (const [attribute, directive] of Object.entries(LOADS[name] ?? {})) {
            const value = attributes[attribute];
            if (value === undefined) continue;
            if (attribute === "srcset")
              for (const url of srcsetUrls(value)) add(directive, url, attribute);
            else add(directive, value, attribute);
          }
        }
        const type = (attributes.type ?? "").toLowerCase();
        // JSON and templates are data, which a policy does not govern.
        if (
          (name === "script" &&
            attributes.src === undefined &&
            (type === "" || /javascript|module/.test(type))) ||
          name === "style"
        )
          inline = { name, line, text: "" };
        open.push(name);
      },
      ontext(chunk) {
        if (inline !== null) inline.text += chunk;
      },
      onclosetag(name) {
        if (inline !== null && inline.name === name) {
          if (inline.text.trim() !== "") {
            const directive = name === "script" ? "script-src" : "style-src";
            found.push({
              file,
              line: inline.line,
              directive,
              url: null,
              shown: `<${name}>…</${name}>`,
              inline: inline.text,
            });
            if (name === "style")
              for (const r of cssReferences(file, inline.text))
                found.push({ ...r, line: inline.line + r.line - 1 });
          }
          inline = null;
        }
        const at = open.lastIndexOf(name);
        if (at !== -1) open.length = at;
      },
    },
    { decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return found;
}

function cssReferences(file: string, text: string): Reference[] {
  const found: Reference[] = [];
  for (const m of text.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/g))
    found.push({
      file,
      line: lineAt(text, m.index),
      directive: "style-src",
      url: m[1]!,
      shown: m[0],
    });
  // url() inside @font-face loads a font, elsewhere an image.
  const fontFaces = [...text.matchAll(/@font-face\s*\{[^}]*\}/g)].map(
    (m) => [m.index, m.index + m[0].length] as const,
  );
  for (const m of text.matchAll(/url\(\s*["']?([^"')\s]+)["']?\s*\)/g)) {
    const before = text.slice(Math.max(0, m.index - 60), m.index);
    if (/@import\s+$/.test(before)) continue;
    const inFont = fontFaces.some(([start, end]) => m.index >= start && m.index < end);
    found.push({
      file,
      line: lineAt(text, m.index),
      directive: inFont ? "font-src" : "img-src",
      url: m[1]!,
      shown: m[0],
    });
  }
  return found;
}

const srcsetUrls = (srcset: string | undefined) =>
  (srcset ?? "")
    .split(",")
    .map((part) => part.trim().split(/\s+/)[0]!)
    .filter(Boolean);

const lineAt = (text: string, at: number) => text.slice(0, at).split("\n").length;

/** A domain's pages' origin and where its covers come from, as the policy sees them. */
export interface PolicyDomain {
  domain: string;
  base_url: string;
  media_url: string;
}

/**
 * The references the policy blocks on some domain's pages, as warnings: what was written, where,
 * and what to add to `content-security.json` (or why nothing can allow it).
 */
export function blockedReferences(
  references: readonly Reference[],
  domains: readonly PolicyDomain[],
  extra: PolicySources,
  settingFile: string,
): Problem[] {
  const warnings: Problem[] = [];
  for (const ref of references) {
    const at = { file: ref.file, line: ref.line };
    if (ref.always !== undefined) {
      warnings.push({
        ...at,
        message: `${ref.shown} is blocked by the pages' Content-Security-Policy: ${ref.always}`,
      });
      continue;
    }
    if (ref.url === null) {
      const directive = ref.directive as "script-src" | "style-src";
      if (allowsInline(directive, ref.inline ?? "", extra)) continue;
      const templated = /\{\{|\{%/.test(ref.inline ?? "");
      const hash = templated
        ? ""
        : `, or add its hash "'sha256-${createHash("sha256")
            .update(ref.inline ?? "")
            .digest("base64")}'" to "${directive}" in ${settingFile}`;
      const where =
        directive === "script-src"
          ? "a script file under site/assets/ and link it with <script src>"
          : "site/assets/site.css";
      warnings.push({
        ...at,
        message: `${ref.shown} is blocked by the pages' Content-Security-Policy: move it into ${where}${hash}`,
      });
      continue;
    }
    const url = ref.url.trim();
    // Written with a template expression: known only once rendered.
    if (/\{\{|\{%/.test(url) || url === "" || url.startsWith("#")) continue;
    const blockedOn: string[] = [];
    let origin = "";
    for (const domain of domains) {
      const page = new URL(domain.base_url.endsWith("/") ? domain.base_url : `${domain.base_url}/`);
      let target: URL;
      try {
        target = new URL(url, page);
      } catch {
        continue; // not a URL a browser would load
      }
      if (target.protocol === "mailto:" || target.protocol === "tel:") continue;
      origin =
        target.protocol === "http:" ||
        target.protocol === "https:" ||
        target.protocol === "ws:" ||
        target.protocol === "wss:"
          ? target.origin
          : target.protocol;
      // Covers on the site's own origin are 'self' already.
      if (!allows(ref.directive, target, page, [new URL(domain.media_url).origin], extra))
        blockedOn.push(domain.domain);
    }
    if (blockedOn.length === 0) continue;
    const which = blockedOn.length === domains.length ? "" : ` on ${blockedOn.join(", ")}`;
    const fix =
      ref.directive === "base-uri"
        ? "a page's base stays its own (base-uri 'self')"
        : ref.directive === "manifest-src"
          ? "a web app manifest must be the site's own (under site/assets/)"
          : `add "${origin}" to "${ref.directive}" in ${settingFile}`;
    warnings.push({
      ...at,
      message: `${ref.shown} is blocked by the pages' Content-Security-Policy${which}: ${fix}`,
    });
  }
  return warnings;
}

/** Whether an inline script or style (`<script>…</script>`, `<style>…</style>`) is allowed by a hash the library named. */
function allowsInline(
  directive: "script-src" | "style-src",
  text: string,
  extra: PolicySources,
): boolean {
  const hashes = (extra[directive] ?? []).filter((s) => HASH_SOURCE.test(s));
  if (hashes.length === 0) return false;
  return hashes.some((source) => {
    const [algorithm, digest] = source.slice(1, -1).split("-") as [string, string];
    return createHash(algorithm).update(text).digest("base64") === digest;
  });
}
