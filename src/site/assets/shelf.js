// <catalogue-shelf>: a row of covers from a catalogue's feed.json (JSON Feed 1.1), for a library's
// own website. One module, no dependency, loaded from the catalogue's host (served with CORS):
//
//   <script type="module" src="https://catalogue.example/assets/shelf.js"></script>
//   <catalogue-shelf src="https://catalogue.example/feed.json" show="new" limit="12">
//     <a href="https://catalogue.example/new/">New in the catalogue</a>
//   </catalogue-shelf>
//
// Attributes: src (any language version's feed), show (new, leaving or all; default all), limit
// (default 12), lang (default the nearest lang of the host page: the feed of that language is
// read when the catalogue has one). What is inside the element (a link) shows until the shelf is
// drawn, and again if the feed cannot be read: nothing is blank without JavaScript.
//
// Strict policies allowed: no inline code, no eval, no frame; text by textContent only (titles come
// from the CSVs); styles in a constructed stylesheet, which applies under style-src 'none' where a
// <style> element would be refused. Themable with ::part(list|item|link|cover|title|badge|more)
// and --shelf-cover-width.

const STYLE = `
:host { display: block; }
[part="list"] { display: flex; gap: 0.75rem; overflow-x: auto; list-style: none; margin: 0; padding: 0.25rem 0 0.75rem; scroll-snap-type: x proximity; }
[part="item"] { flex: 0 0 var(--shelf-cover-width, 8rem); scroll-snap-align: start; position: relative; }
[part="link"] { display: block; color: inherit; text-decoration: none; }
[part="link"]:focus-visible { outline: 3px solid currentColor; outline-offset: 2px; }
[part="cover"] { display: block; width: 100%; height: auto; aspect-ratio: 2 / 3; object-fit: cover; background: #ddd; }
[part="title"] { display: block; margin-top: 0.25rem; font-size: 0.9em; line-height: 1.25; }
[part="badge"] { display: inline-block; margin-top: 0.2rem; font-size: 0.75em; font-weight: bold; }
[part="more"] { display: inline-block; margin-top: 0.25rem; }
`;

let sheet = null;
function styles() {
  if (sheet === null && "adoptedStyleSheets" in Document.prototype) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
  }
  return sheet;
}

class CatalogueShelf extends HTMLElement {
  static observedAttributes = ["src", "show", "limit", "lang"];

  connectedCallback() {
    void this.draw();
  }

  attributeChangedCallback() {
    if (this.isConnected) void this.draw();
  }

  language() {
    const own = this.getAttribute("lang");
    if (own) return own;
    const near = this.closest("[lang]");
    return near ? near.getAttribute("lang") : document.documentElement.lang || "";
  }

  async draw() {
    const src = this.getAttribute("src");
    if (!src) return;
    const drawing = (this.drawing = {});
    let feed;
    try {
      feed = await readFeed(new URL(src, document.baseURI), this.language());
    } catch {
      if (this.drawing === drawing) this.fallBack();
      return;
    }
    if (this.drawing !== drawing) return;
    const show = this.getAttribute("show") || "all";
    const limit = Math.max(1, Number.parseInt(this.getAttribute("limit") || "12", 10) || 12);
    const items = (Array.isArray(feed.items) ? feed.items : [])
      .filter((item) => show === "all" || (item.tags || []).includes(show))
      .slice(0, limit);
    this.render(feed, items);
  }

  fallBack() {
    // The light DOM (the element's own link) shows again.
    if (this.shadowRoot) this.shadowRoot.replaceChildren(document.createElement("slot"));
  }

  render(feed, items) {
    const root = this.shadowRoot || this.attachShadow({ mode: "open" });
    const sheet = styles();
    if (sheet !== null) root.adoptedStyleSheets = [sheet];
    const texts = (feed._catalogue && feed._catalogue.texts) || {};
    const list = element("ul", "list");
    if (feed.title) list.setAttribute("aria-label", feed.title);
    for (const item of items) {
      const li = element("li", "item");
      const link = element("a", "link");
      link.href = safeUrl(item.url);
      const cover = item._catalogue && item._catalogue.cover;
      if (item.image) {
        const img = element("img", "cover");
        img.alt = "";
        img.loading = "lazy";
        img.decoding = "async";
        img.src = safeUrl(item.image);
        if (cover) {
          img.srcset = cover.jpeg;
          img.sizes = "var(--shelf-cover-width, 8rem)";
          img.width = cover.width;
          img.height = cover.height;
        }
        link.append(img);
      }
      const title = element("span", "title");
      title.textContent = item.title || "";
      link.append(title);
      li.append(link);
      const tags = item.tags || [];
      const badge = tags.includes("leaving")
        ? texts.leaving
        : tags.includes("new")
          ? texts.new
          : "";
      if (badge) {
        const span = element("span", "badge");
        span.textContent = badge;
        li.append(span);
      }
      list.append(li);
    }
    const nodes = [list];
    if (feed.home_page_url && texts.more) {
      const more = element("a", "more");
      more.href = safeUrl(feed.home_page_url);
      more.textContent = texts.more;
      nodes.push(more);
    }
    root.replaceChildren(...nodes);
  }
}

function element(name, part) {
  const node = document.createElement(name);
  node.setAttribute("part", part);
  return node;
}

/** Only http(s) links from a feed: a javascript: URL in a crafted feed must not become a link. */
function safeUrl(text) {
  try {
    const url = new URL(text, document.baseURI);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : "about:blank";
  } catch {
    return "about:blank";
  }
}

/** The feed at `url`, or the one of `lang` the feed names in its versions (language, then base language). */
async function readFeed(url, lang) {
  const feed = await getJson(url);
  if (!lang) return feed;
  const versions = (feed._catalogue && feed._catalogue.versions) || {};
  const tags = Object.keys(versions);
  const exact = tags.find((tag) => tag.toLowerCase() === lang.toLowerCase());
  const match =
    exact ||
    (sameLanguage(feed.language, lang) ? null : tags.find((tag) => sameLanguage(tag, lang)));
  if (!match || new URL(versions[match], url).href === url.href) return feed;
  try {
    return await getJson(new URL(versions[match], url));
  } catch {
    return feed;
  }
}

const base = (tag) =>
  String(tag || "")
    .toLowerCase()
    .split("-")[0];
const sameLanguage = (a, b) => base(a) === base(b);

async function getJson(url) {
  const response = await fetch(url, { mode: "cors", credentials: "omit" });
  if (!response.ok) throw new Error(`${response.status}`);
  return response.json();
}

if (!customElements.get("catalogue-shelf"))
  customElements.define("catalogue-shelf", CatalogueShelf);
