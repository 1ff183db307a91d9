import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import type { DomainView } from "../../src/model/domain-view.ts";
import { generatedContent } from "../helpers/catalogue.ts";
import { directorPhotos } from "./fixture.ts";

/**
 * Lighthouse 12 (the last major that runs on Node 20) driving Debian's Chromium, for the
 * Lighthouse test and the bench (scripts/bench-lighthouse.ts). Domains are named `*.localhost`:
 * Chromium resolves them to the loopback address itself, and Lighthouse counts them as secure
 * origins, as it does localhost, so a plain-HTTP test server is not marked down for lacking
 * HTTPS while the pages keep their own host names (the canonical links, robots.txt by host).
 */

export const CHROMIUM = "/usr/bin/chromium";
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/** A Spanish domain at its host's root and an English one under /cataleg. */
export const LH_DOMAINS = { es: "biblioteca.localhost", en: "library.localhost" } as const;
/** The other language of the Spanish domain's site. */
export const LH_LANGUAGE = "va";

/**
 * A generated catalogue with the two domains above, a director whose photo may be shown, and
 * one whose photo may not.
 */
export async function lighthouseContent(dir: string): Promise<string> {
  const content = await generatedContent(dir, { works: 45, domains: 2 });
  const rename = (text: string) =>
    text
      .replaceAll("domain-1.example", LH_DOMAINS.es)
      .replaceAll("domain-2.example", LH_DOMAINS.en);
  for (const file of ["domains.csv", "availability.csv"]) {
    const csv = path.join(content, file);
    await writeFile(csv, rename(await readFile(csv, "utf8")));
  }
  const domains = path.join(content, "domains.csv");
  const lines = (await readFile(domains, "utf8"))
    .replace(
      `${LH_DOMAINS.en},Red de bibliotecas 2,,`,
      `${LH_DOMAINS.en},Red de bibliotecas 2,https://${LH_DOMAINS.en}/cataleg,`,
    )
    .trimEnd()
    .split("\n");
  // The Spanish domain's site is also in Valencian (under va/): a language other than the locale's.
  await writeFile(
    domains,
    lines
      .map(
        (line, i) =>
          `${line},${i === 0 ? "languages" : line.startsWith(`${LH_DOMAINS.es},`) ? LH_LANGUAGE : ""}`,
      )
      .join("\n") + "\n",
  );
  await directorPhotos(content, { 1: true, 2: false });
  return content;
}

/**
 * A home, listing, work, director and category page of a domain's site (`site`: its root URL):
 * the work and director of a director whose photo is shown, when the domain lists one.
 */
export function auditedPages(site: string, view: DomainView): { kind: string; url: string }[] {
  const listed =
    view.orders.name.find((l) => l.director?.show_img) ??
    view.orders.name.find((l) => l.director !== null)!;
  return [
    { kind: "home", url: site },
    { kind: "listing", url: `${site}page/2/` },
    { kind: "work", url: `${site}audiovisual-detail/${listed.work.id}/${listed.work.slug}/` },
    { kind: "director", url: `${site}director/${listed.director!.slug}/` },
    { kind: "category", url: `${site}category/${listed.work.audiovisual_type ?? "peliculas"}/` },
  ];
}

export interface Audit {
  /** Category scores, 0 to 1. */
  scores: Record<string, number | null>;
  /** The weighted audits that did not pass, with what they found. */
  failing: string[];
  /** Largest contentful paint and total blocking time in milliseconds (NaN without the performance category). */
  metrics: { lcp: number; tbt: number };
}

export interface Browser {
  audit(url: string, categories: string[]): Promise<Audit>;
  close(): Promise<void>;
}

/** One Chromium for every audit (launching it is a third of a run). */
export async function launchBrowser(): Promise<Browser> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROME_FLAGS,
    logLevel: "silent",
  });
  return {
    async audit(url, categories) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: categories,
        disableFullPageScreenshot: true,
      });
      if (result === undefined) throw new Error(`Lighthouse returned nothing for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError)
        throw new Error(
          `Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
        );
      const failing: string[] = [];
      for (const category of Object.values(lhr.categories)) {
        for (const ref of category.auditRefs) {
          const audit = lhr.audits[ref.id]!;
          if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
            failing.push(
              `${category.id}/${audit.id} ${audit.score} ${audit.displayValue ?? ""} ${JSON.stringify((audit.details as { items?: unknown[] })?.items?.slice(0, 3) ?? "").slice(0, 400)}`,
            );
          }
        }
      }
      const metric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const metrics = {
        lcp: metric("largest-contentful-paint"),
        tbt: metric("total-blocking-time"),
      };
      return {
        scores: Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, c.score])),
        failing,
        metrics,
      };
    },
    close: async () => void chrome.kill(),
  };
}
