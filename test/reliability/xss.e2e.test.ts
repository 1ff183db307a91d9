import { CHROMIUM, launchChromium } from "../helpers/chromium.ts";
import { requireTool } from "../support/requires.ts";
import path from "node:path";
import { type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, tempDir } from "../helpers/catalogue.ts";
import { writeContent } from "../helpers/content.ts";
import { serveFolder } from "../site/fixture.ts";

/**
 * Script and markup in every text column of the CSVs end up as text in every kind of HTML page:
 * built with the real pipeline, opened in Chromium, and checked in the live DOM (nothing ran, no
 * dialog, no injected element or event handler, the payload shown literally).
 */

// In CI a missing browser is a failure, never a silent skip.
const run = describe.runIf(requireTool(CHROMIUM, "the tests of hostile text in Chromium") !== null);

/** The payload, tagged with the column it was put in so the test can find that column's text. */
const payload = (label: string) =>
  `${label} <script>window.__xss=1</script> "><img src=x onerror=window.__xss=2> '><svg onload=window.__xss=3> ` +
  `javascript:window.__xss=4 </title></textarea><script>window.__xss=5</script> {{7*7}} \${7*7} &amp; &lt;`;

const csvCell = (text: string) =>
  /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
const row = (cells: string[]) => cells.map(csvCell).join(",");

// One domain per biography language, so that every description column is shown somewhere.
const LANGS = ["es", "en", "ca", "gl", "eu", "va", "fr"] as const;
const DOMAINS = LANGS.map((lang) => ({
  host: `${lang}.example`,
  lang,
  name: payload(`domain ${lang}`),
}));
const WORKS = [
  { id: 1, slug: "work-one", name: payload("work one"), type: "peliculas", director: 1 },
  { id: 2, slug: "work-two", name: payload("work two"), type: "documentales", director: 2 },
];
const DIRECTORS = [
  // A biography in every language: each domain shows its own.
  {
    id: 1,
    slug: "director-a",
    name: payload("director a"),
    bios: Object.fromEntries(
      LANGS.map((l) => [l, `${payload(`bio ${l}`)}\n\n${payload(`bio ${l} second paragraph`)}`]),
    ),
  },
  // Only the untagged description column: shown in every domain.
  { id: 2, slug: "director-b", name: payload("director b"), description: payload("bio untagged") },
];

let dir: string;
let cleanup: () => Promise<void>;
let out: string;
let browser: Browser;
const dialogs: string[] = [];
const requested: string[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir("catalogue-xss-"));
  const content = await writeContent(path.join(dir, "content"), {
    domains:
      ["domain,name,locale", ...DOMAINS.map((d) => row([d.host, d.name, d.lang]))].join("\n") +
      "\n",
    directors:
      [
        "id,name,slug,show_img,description," + LANGS.map((l) => `description_${l}`).join(","),
        ...DIRECTORS.map((d) =>
          row([
            String(d.id),
            d.name,
            d.slug,
            "false",
            d.description ?? "",
            ...LANGS.map((l) => d.bios?.[l] ?? ""),
          ]),
        ),
      ].join("\n") + "\n",
    audiovisuals:
      [
        "id,name,slug,audiovisual_type,director_id,year,cover",
        ...WORKS.map((w) =>
          row([String(w.id), w.name, w.slug, w.type, String(w.director), "1950", "covers/a.png"]),
        ),
      ].join("\n") + "\n",
    availability:
      [
        "audiovisual_id,domain,available_from",
        ...DOMAINS.flatMap((d) => WORKS.map((w) => `${w.id},${d.host},2020-01-01`)),
      ].join("\n") + "\n",
  });
  out = path.join(dir, "out");
  await buildFixture(content, out, { site: true });
  browser = await launchChromium();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await cleanup?.();
});

async function open(base: string, url: string): Promise<Page> {
  const page = await browser.newPage();
  page.on("dialog", (d) => {
    dialogs.push(`${d.type()}: ${d.message()} (${page.url()})`);
    void d.dismiss();
  });
  page.on("request", (r) => requested.push(r.url()));
  await page.goto(base + url, { waitUntil: "load" });
  return page;
}

/** What an injection would leave in the live DOM: a global, handlers, script URLs, the injected elements. */
async function injected(page: Page): Promise<Record<string, unknown>> {
  return page.evaluate<Record<string, unknown>>(`({
    xss: typeof window.__xss,
    handlers: [...document.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => e.tagName + " " + a.name)),
    scriptUrls: [...document.querySelectorAll("[href], [src], [action], [formaction]")]
      .map((e) => e.getAttribute("href") ?? e.getAttribute("src") ?? e.getAttribute("action") ?? e.getAttribute("formaction"))
      .filter((u) => /^\\s*javascript:/i.test(u)),
    imgX: document.querySelectorAll('img[src="x"], svg[onload]').length,
    // Structured data holds the payload as data: it must stay a whole JSON document that never runs.
    inlineScripts: [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')].filter((s) => s.textContent.includes("__xss")).length,
    brokenData: [...document.querySelectorAll('script[type="application/ld+json"]')].filter((s) => { try { JSON.parse(s.textContent); return false; } catch { return true; } }).length,
  })`);
}
const CLEAN = {
  xss: "undefined",
  handlers: [],
  scriptUrls: [],
  imgX: 0,
  inlineScripts: 0,
  brokenData: 0,
};

/** The page's visible text, spaces collapsed as the payload's are. */
const text = async (page: Page) =>
  (await page.evaluate<string>("document.title + '\\n' + document.body.innerText")).replace(
    /[ \t]+/g,
    " ",
  );

run("hostile text in the HTML catalogue", () => {
  it("the detector sees an injection when the payload is not escaped (so its silence means something)", async () => {
    const page = await browser.newPage();
    await page.setContent(`<p>${payload("raw")}</p><a href="javascript:void 0">x</a>`);
    const found = await injected(page);
    expect(found.xss).toBe("number");
    expect(found.handlers).not.toEqual([]);
    expect(found.scriptUrls).toEqual(["javascript:void 0"]);
    expect(found.imgX).toBeGreaterThan(0);
    await page.close();
  });

  it("every page kind of every domain shows each column's payload as text and runs none of it", async () => {
    let pages = 0;
    for (const domain of DOMAINS) {
      const server = await serveFolder(path.join(out, domain.host));
      try {
        // Page kind → the payloads that must appear on it as text.
        const expectations: [string, string[]][] = [
          ["/", [domain.name, WORKS[0]!.name, WORKS[1]!.name]],
          ["/ordering/-year/", [WORKS[0]!.name, WORKS[1]!.name]],
          [
            "/audiovisual-detail/1/work-one/",
            [
              WORKS[0]!.name,
              DIRECTORS[0]!.name,
              payload(`bio ${domain.lang}`),
              payload(`bio ${domain.lang} second paragraph`),
            ],
          ],
          [
            "/audiovisual-detail/2/work-two/",
            [WORKS[1]!.name, DIRECTORS[1]!.name, payload("bio untagged")],
          ],
          [
            "/director/director-a/",
            [DIRECTORS[0]!.name, payload(`bio ${domain.lang}`), WORKS[0]!.name],
          ],
          ["/director/director-b/", [DIRECTORS[1]!.name, payload("bio untagged"), WORKS[1]!.name]],
          ["/category/peliculas/", [WORKS[0]!.name]],
          ["/404.html", []],
        ];
        const page = await open(server.url, "/");
        for (const [url, shown] of expectations) {
          await page.goto(server.url + url, { waitUntil: "load" });
          expect({ url, ...(await injected(page)) }).toEqual({ url, ...CLEAN });
          const visible = await text(page);
          for (const expected of shown) expect(visible, `${domain.host}${url}`).toContain(expected);
          pages++;
        }
        await page.close();
      } finally {
        await server.close();
      }
    }
    expect(pages).toBe(DOMAINS.length * 8);
    expect(dialogs).toEqual([]);
    // The injected <img src=x> was never even requested.
    expect(requested.filter((u) => /\/x$/.test(u))).toEqual([]);
  }, 180_000);

  it("search results draw the payload as text and run none of it", async () => {
    const server = await serveFolder(path.join(out, "es.example"));
    try {
      const page = await open(server.url, "/");
      const box = page.locator("input#q");
      await expect.poll(() => box.isVisible()).toBe(true);
      await box.fill("work one");
      const result = page.locator("[data-results] .card a").first();
      await result.waitFor({ timeout: 15_000 });
      expect(await page.locator("[data-results]").innerText()).toContain(
        "<script>window.__xss=1</script>",
      );
      expect(await injected(page)).toEqual(CLEAN);
      await page.close();
    } finally {
      await server.close();
    }
    expect(dialogs).toEqual([]);
  }, 60_000);
});
