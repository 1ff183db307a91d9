// The filter panel and the search box of the home and listing pages, over the site's own index
// (browse/*.js, src/site/browse-index.ts). The panel is hidden in the HTML and shown here, so a
// browser without JavaScript shows the static listing only. The index's files are classic scripts
// loaded with <script src>: they load from a server under script-src 'self' and from file://,
// where fetch() and import() are refused. Text goes in with textContent only: titles and names
// come from the CSVs and are never treated as markup. The state lives in the URL (?q=…&decade=…),
// so a filtered view can be shared, reloaded and gone back to.
(() => {
  const script = document.currentScript;
  const panel = document.querySelector("[data-browse-panel]");
  if (!script || !panel) return;
  const base = new URL(script.dataset.browse, document.baseURI);
  const siteRoot = new URL(script.dataset.root || "./", document.baseURI);
  const media = script.dataset.media;
  const workPath = script.dataset.work;
  const pageOrdering = script.dataset.ordering || "name";
  const fromFile = location.protocol === "file:";
  const lang = document.documentElement.lang;
  const PAGE_SIZE = 20;
  const TOP = 10;
  const ORDERINGS = ["name", "-name", "year", "-year"];
  const SIZES = "(min-width: 40rem) 11rem, 45vw";
  // The facets in the panel's order; their URL parameters are their names ("availability" is new=1/leaving=1).
  const FACETS = [
    "category",
    "decade",
    "director",
    "country",
    "audio",
    "subtitles",
    "accessibility",
    "age",
    "availability",
  ];
  const AVAILABILITY = ["new", "leaving"];
  const form = panel.querySelector("[data-filters]");
  const input = form.querySelector('input[type="search"]');
  const opener = panel.querySelector("[data-filters-open]");
  const facetsBox = panel.querySelector("[data-facets]");
  const clear = panel.querySelector("[data-clear]");
  const live = panel.querySelector("[data-live]");
  const results = document.querySelector("[data-results]");
  const resultsBody = results.querySelector("[data-results-body]");
  const resultsTitle = results.querySelector("h2");
  const staticPart = document.querySelector("[data-static]");

  const loaded = new Map();
  /** One index file, once: `self.catalogueBrowse[name]` once its script has run. */
  const load = (name, file) => {
    if (!loaded.has(name))
      loaded.set(
        name,
        new Promise((resolve, reject) => {
          const tag = document.createElement("script");
          tag.src = new URL(file, base).href;
          tag.charset = "utf-8";
          tag.onload = () => resolve(self.catalogueBrowse[name]);
          tag.onerror = () => reject(new Error(`${tag.src} did not load`));
          document.head.append(tag);
        }),
      );
    return loaded.get(name);
  };

  let F = null; // facets.js
  let L = null; // labels.js
  let D = null; // directors.js
  let S = null; // search.js, folded
  const state = emptyState();
  const facets = {}; // per facet: { values, labels, column, nodes, ... }

  function emptyState() {
    const s = { q: "", ordering: null, page: 1 };
    for (const f of FACETS) s[f] = new Set();
    return s;
  }
  const active = () =>
    state.q.trim() !== "" ||
    state.ordering !== null ||
    state.page > 1 ||
    FACETS.some((f) => state[f].size > 0);

  // ---------- texts ----------
  const plurals = new Intl.PluralRules(lang);
  const number = (n) => n.toLocaleString(lang);
  function text(key, values = {}) {
    let t = L.texts[key] ?? key;
    if (typeof t !== "string") t = t[plurals.select(values.n ?? 0)] ?? t.other;
    return t.replace(/\{(\w+)\}/g, (all, name) =>
      name in values ? (name === "n" ? number(values[name]) : String(values[name])) : all,
    );
  }
  const LEGENDS = {
    category: "category",
    decade: "filters.decade",
    director: "director",
    country: "work.country",
    audio: "work.audio",
    subtitles: "work.subtitles",
    accessibility: "work.accessibility",
    age: "work.age",
    availability: "filters.availability",
  };

  // ---------- URL state ----------
  function readUrl() {
    const params = new URLSearchParams(location.search);
    const s = emptyState();
    s.q = params.get("q") ?? "";
    for (const f of FACETS) {
      if (f === "availability") {
        for (const v of AVAILABILITY) if (params.get(v) === "1") s.availability.add(v);
      } else for (const v of params.getAll(f)) if (v !== "") s[f].add(v);
    }
    const ordering = params.get("ordering");
    s.ordering = ORDERINGS.includes(ordering) ? ordering : null;
    const page = Number(params.get("page"));
    s.page = Number.isInteger(page) && page > 1 ? page : 1;
    return s;
  }
  function urlOf(s) {
    const params = new URLSearchParams();
    if (s.q.trim() !== "") params.append("q", s.q);
    for (const f of FACETS) {
      if (f === "availability") {
        for (const v of AVAILABILITY) if (s.availability.has(v)) params.append(v, "1");
        continue;
      }
      const order = facets[f] ? facets[f].values : [...s[f]];
      for (const v of order) if (s[f].has(v)) params.append(f, v);
      // Values not (yet) known to the index are kept as they came.
      for (const v of s[f]) if (!order.includes(v)) params.append(f, v);
    }
    if (s.ordering !== null) params.append("ordering", s.ordering);
    if (s.page > 1) params.append("page", String(s.page));
    const query = params.toString();
    return location.pathname + (query === "" ? "" : `?${query}`);
  }
  function copyState(from) {
    state.q = from.q;
    state.ordering = from.ordering;
    state.page = from.page;
    for (const f of FACETS) state[f] = new Set(from[f]);
  }

  // ---------- the index ----------
  /** Typed columns: per facet, each position's value codes (v + 1; 0 = none). */
  function prepare() {
    const n = F.n;
    const decades = [...new Set(F.year.filter((y) => y > 0).map((y) => y - (y % 10)))].sort(
      (a, b) => a - b,
    );
    const decadeOf = new Map(decades.map((d, i) => [d, i]));
    const single = (codes) => ({ kind: "single", codes });
    const multiple = (column, size) => {
      if (size <= 31) return { kind: "mask", masks: Uint32Array.from(column) };
      const offsets = new Uint32Array(n + 1);
      const values = [];
      column.forEach((c, i) => {
        for (const v of c === 0 ? [] : Array.isArray(c) ? c : [c]) values.push(v - 1);
        offsets[i + 1] = values.length;
      });
      return { kind: "multi", offsets, values: Uint16Array.from(values) };
    };
    const flags = (list) => {
      const codes = new Uint16Array(n);
      for (const i of list) codes[i] = 1;
      return codes;
    };
    const isNew = flags(F.new);
    const isLeaving = flags(F.leaving);
    F.isNew = isNew;
    F.isLeaving = isLeaving;
    const availability = new Uint32Array(n);
    for (let i = 0; i < n; i++) availability[i] = isNew[i] | (isLeaving[i] << 1);
    const define = (f, values, labels, column) => {
      facets[f] = { f, values, labels, column, size: values.length };
    };
    for (const f of ["category", "country", "audio", "subtitles", "accessibility", "age"]) {
      const values = F.values[f];
      const labels = f === "age" ? values : L[f];
      define(f, values, labels, multiple(F[f], values.length));
    }
    define(
      "decade",
      decades.map(String),
      decades.map((d) => text("browse.decade", { decade: d })),
      single(Uint16Array.from(F.year, (y) => (y > 0 ? decadeOf.get(y - (y % 10)) + 1 : 0))),
    );
    define("availability", AVAILABILITY, [text("isNew"), text("isLeaving")], {
      kind: "mask",
      masks: availability,
    });
    // Ranks of the collation: equal titles share one (the -name order keeps them by id).
    const rank = new Uint32Array(n);
    const tie = flags(F.ties);
    for (let i = 1; i < n; i++) rank[i] = rank[i - 1] + (tie[i] ? 0 : 1);
    F.rank = rank;
  }
  function prepareDirectors() {
    const n = F.n;
    const values = D.directors.map(([slug]) => slug);
    facets.director = {
      f: "director",
      values,
      labels: D.directors.map(([, name]) => name),
      column: { kind: "single", codes: Uint32Array.from(D.director.slice(0, n)) },
      size: values.length,
    };
  }

  // " word word": accents and case folded, so that a word starts wherever a space precedes it.
  const fold = (t) =>
    " " +
    t
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  /** 0: no match; 1: by a title; 2: by titles and director together. */
  function searchMatches(q) {
    const terms = fold(q)
      .split(" ")
      .filter(Boolean)
      .map((w) => " " + w);
    if (terms.length === 0) return null;
    const n = F.n;
    const match = new Uint8Array(n);
    const names = D.directors.map(([, name]) => fold(name));
    for (let i = 0; i < n; i++) {
      const titles = S[i];
      if (terms.every((t) => titles.includes(t))) match[i] = 1;
      else {
        const d = D.director[i];
        const name = d ? names[d - 1] : "";
        if (terms.every((t) => titles.includes(t) || name.includes(t))) match[i] = 2;
      }
    }
    return { terms, match };
  }

  /**
   * One pass over the works: those matching every facet (and the search), and each facet's
   * counts over the works matching all the others, so that a facet can be widened.
   */
  function compute(found) {
    const list = FACETS.filter((f) => facets[f]).map((f) => facets[f]);
    const chosen = [];
    for (const [k, facet] of list.entries()) {
      const set = state[facet.f];
      if (set.size === 0) continue;
      const sel = new Uint8Array(facet.size + 1);
      let mask = 0;
      facet.values.forEach((v, i) => {
        if (set.has(v)) {
          sel[i + 1] = 1;
          mask |= 1 << i;
        }
      });
      chosen.push({ k, c: facet.column, sel, mask });
    }
    const counts = list.map((facet) => new Uint32Array(facet.size));
    const add = (c, count, i) => {
      if (c.kind === "single") {
        const v = c.codes[i];
        if (v) count[v - 1]++;
      } else if (c.kind === "mask") {
        for (let m = c.masks[i], b = 0; m; m >>>= 1, b++) if (m & 1) count[b]++;
      } else for (let j = c.offsets[i]; j < c.offsets[i + 1]; j++) count[c.values[j]]++;
    };
    const ok = (a, i) => {
      const c = a.c;
      if (c.kind === "single") return a.sel[c.codes[i]] === 1;
      if (c.kind === "mask") return (c.masks[i] & a.mask) !== 0;
      for (let j = c.offsets[i]; j < c.offsets[i + 1]; j++) if (a.sel[c.values[j] + 1]) return true;
      return false;
    };
    const matched = [];
    for (let i = 0; i < F.n; i++) {
      if (found !== null && found.match[i] === 0) continue;
      let failed = -1;
      let fails = 0;
      for (const a of chosen)
        if (!ok(a, i)) {
          failed = a.k;
          if (++fails > 1) break;
        }
      if (fails === 0) {
        matched.push(i);
        for (let k = 0; k < list.length; k++) add(list[k].column, counts[k], i);
      } else if (fails === 1) add(list[failed].column, counts[failed], i);
    }
    return { matched, counts: Object.fromEntries(list.map((facet, k) => [facet.f, counts[k]])) };
  }

  /** The positions in an ordering (docs/interface.md#orderings): works without a year last in both year orders. */
  function ordered(list, ordering) {
    const year = F.year;
    const rank = F.rank;
    const by = {
      "-name": (a, b) => rank[b] - rank[a] || a - b,
      year: (a, b) => (year[a] || 1e9) - (year[b] || 1e9) || a - b,
      "-year": (a, b) =>
        year[a] === year[b] ? a - b : !year[a] ? 1 : !year[b] ? -1 : year[b] - year[a],
    }[ordering];
    return by === undefined ? list : list.slice().sort(by);
  }

  // ---------- the panel ----------
  const expanded = {};
  let directorFind = null;
  function drawPanel() {
    const boxes = [];
    for (const f of FACETS) {
      const fieldset = document.createElement("fieldset");
      fieldset.dataset.facet = f;
      const legend = document.createElement("legend");
      legend.textContent = text(LEGENDS[f]);
      const list = document.createElement("ul");
      fieldset.append(legend);
      if (f === "director") {
        const id = "filters-director";
        const label = document.createElement("label");
        label.htmlFor = id;
        label.textContent = text("filters.findDirector");
        directorFind = document.createElement("input");
        directorFind.type = "search";
        directorFind.id = id;
        directorFind.autocomplete = "off";
        const find = () => {
          wantDirectors = true;
          commit(null);
        };
        directorFind.addEventListener("focus", find);
        directorFind.addEventListener("input", find);
        fieldset.append(label, directorFind);
      }
      fieldset.append(list);
      const more = document.createElement("button");
      more.type = "button";
      more.hidden = true;
      more.setAttribute("aria-expanded", "false");
      more.addEventListener("click", () => {
        expanded[f] = !expanded[f];
        refreshPanel();
      });
      fieldset.append(more);
      boxes.push(fieldset);
      ui[f] = { list, more };
    }
    facetsBox.replaceChildren(...boxes);
  }
  /** Per facet, its list and its "more" button; per facet with data, its checkboxes by value. */
  const ui = {};
  const nodesOf = {};
  let lastCounts = null;
  /** The display order of a facet's values: names in the language's collation where they are names. */
  function displayOrder(facet) {
    if (facet.order) return facet.order;
    const idx = facet.values.map((_, i) => i);
    if (["country", "audio", "subtitles"].includes(facet.f)) {
      const collator = new Intl.Collator(lang);
      idx.sort((a, b) => collator.compare(facet.labels[a], facet.labels[b]));
    }
    facet.order = idx;
    facet.place = new Uint32Array(idx.length);
    idx.forEach((v, p) => (facet.place[v] = p));
    return idx;
  }
  /** The checkbox of a value, made once and inserted in display order: nodes never move, so focus stays. */
  function node(facet, v) {
    const nodes = nodesOf[facet.f];
    let item = nodes.get(v);
    if (item) return item;
    const li = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = facet.f;
    box.value = facet.values[v];
    const name = document.createElement("span");
    label.append(box, name);
    li.append(label);
    item = { li, box, name };
    nodes.set(v, item);
    const place = facet.place[v];
    const { list } = ui[facet.f];
    const after = [...list.children].find((other) => Number(other.dataset.place) > place);
    li.dataset.place = String(place);
    list.insertBefore(li, after ?? null);
    return item;
  }
  function refreshPanel() {
    const counts = lastCounts;
    if (counts === null) return;
    for (const f of FACETS) {
      const facet = facets[f];
      if (!facet) continue;
      const count = counts[f];
      const nodes = (nodesOf[f] ??= new Map());
      const { more } = ui[f];
      const focused = (v) => nodes.get(v)?.box === document.activeElement;
      const order = displayOrder(facet);
      const find = f === "director" && directorFind ? fold(directorFind.value).trim() : "";
      const chosen = state[f];
      const candidates = order.filter(
        (v) =>
          (count[v] > 0 && (find === "" || fold(facet.labels[v]).includes(" " + find))) ||
          chosen.has(facet.values[v]) ||
          focused(v),
      );
      let shown = candidates;
      if (candidates.length > TOP && !expanded[f]) {
        const top = new Set(
          candidates
            .slice()
            .sort((a, b) => count[b] - count[a] || facet.place[a] - facet.place[b])
            .slice(0, TOP),
        );
        shown = candidates.filter((v) => top.has(v) || chosen.has(facet.values[v]) || focused(v));
      }
      const visible = new Set(shown);
      for (const v of shown) node(facet, v);
      for (const [v, item] of nodes) {
        item.li.hidden = !visible.has(v);
        item.box.checked = chosen.has(facet.values[v]);
        const label = `${facet.labels[v]} (${number(count[v])})`;
        if (item.name.textContent !== label) item.name.textContent = label;
      }
      const hiddenMore = candidates.length - shown.length;
      more.hidden = candidates.length <= TOP;
      more.setAttribute("aria-expanded", String(Boolean(expanded[f])));
      more.textContent = expanded[f]
        ? text("filters.fewer")
        : text("filters.more", { n: hiddenMore });
    }
  }

  // ---------- cards and paging ----------
  function pictureOf([a, b, c]) {
    // [stem, widths, height] or [[webp, width]…, [jpeg, width]…, height]
    const files = typeof a === "string" ? null : { webp: a, jpeg: b };
    const widths = files ? files.jpeg.map(([, w]) => w) : b;
    const file = (format, i) => (files ? files[format][i][0] : `${a}-${widths[i]}.${format}`);
    const set = (format) =>
      (files ? files[format] : widths.map((w) => [null, w]))
        .map(([, w], i) => `${media}${file(format, i)} ${w}w`)
        .join(", ");
    const largest = widths.length - 1;
    let fallback = widths.findIndex((w) => w >= 480);
    if (fallback < 0) fallback = largest;
    return {
      set,
      fallback: `${media}${file("jpeg", fallback)}`,
      width: widths[largest],
      height: c,
    };
  }
  function cardItem(position, data, index, found) {
    const [id, slug, title, pictureData, director, year, others] = data;
    const li = document.createElement("li");
    li.className = "card";
    li.dataset.id = String(id);
    const a = document.createElement("a");
    const href = new URL(workPath.replace("{id}", id).replace("{slug}", slug), siteRoot);
    a.href = fromFile ? `${href.href}index.html` : href.pathname;
    const p = pictureOf(pictureData);
    const picture = document.createElement("picture");
    const source = document.createElement("source");
    source.type = "image/webp";
    source.srcset = p.set("webp");
    source.sizes = SIZES;
    const img = document.createElement("img");
    img.src = p.fallback;
    img.srcset = p.set("jpeg");
    img.sizes = SIZES;
    img.width = p.width;
    img.height = p.height;
    img.alt = "";
    if (index >= 6) img.loading = "lazy";
    img.decoding = "async";
    picture.append(source, img);
    const name = document.createElement("span");
    name.className = "card-title";
    name.textContent = title;
    a.append(picture, name);
    li.append(a);
    const meta = [director || null, year ? String(year) : null].filter(Boolean).join(" · ");
    if (meta) {
      const span = document.createElement("span");
      span.className = "card-meta";
      span.textContent = meta;
      li.append(span);
    }
    // Found by another of its titles: say which.
    if (found !== null && others) {
      const shown = fold(title);
      if (!found.terms.every((t) => shown.includes(t))) {
        const other = others.find((o) => found.terms.every((t) => fold(o).includes(t)));
        if (other) {
          const also = document.createElement("span");
          also.className = "card-also";
          also.textContent = text("filters.alsoTitled", { title: other });
          li.append(also);
        }
      }
    }
    for (const [flag, key] of [
      [F.isNew, "isNew"],
      [F.isLeaving, "isLeaving"],
    ])
      if (flag[position]) {
        const badge = document.createElement("span");
        badge.className = key === "isNew" ? "badge" : "badge badge-leaving";
        badge.textContent = text(key);
        li.append(badge);
      }
    return li;
  }
  function stateLink(change, label, attributes = {}) {
    const next = emptyState();
    Object.assign(next, state, change);
    for (const f of FACETS) next[f] = state[f];
    const a = document.createElement("a");
    a.href = urlOf(next);
    a.textContent = label;
    for (const [k, v] of Object.entries(attributes)) a.setAttribute(k, v);
    a.addEventListener("click", (event) => {
      event.preventDefault();
      Object.assign(state, change);
      commit("push", change.page !== undefined);
    });
    return a;
  }
  async function drawResults(list, ordering) {
    const pages = Math.max(1, Math.ceil(list.length / PAGE_SIZE));
    const page = Math.min(state.page, pages);
    const shown = list.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    const chunks = await Promise.all(
      [...new Set(shown.map((i) => F.ids[i] % F.chunks))].map((k) =>
        load(`cards-${k}`, `cards/${k}.js`),
      ),
    );
    const byId = new Map();
    for (const chunk of chunks) for (const w of chunk) byId.set(w[0], w);
    const nav = document.createElement("nav");
    nav.className = "orderings";
    nav.setAttribute("aria-label", text("orderBy"));
    const span = document.createElement("span");
    span.textContent = `${text("orderBy")}:`;
    const ul = document.createElement("ul");
    for (const o of ORDERINGS) {
      const li = document.createElement("li");
      li.append(
        stateLink(
          { ordering: o, page: 1 },
          text(`orderings.${o}`),
          o === ordering ? { "aria-current": "page" } : {},
        ),
      );
      ul.append(li);
    }
    nav.append(span, ul);
    const parts = [nav];
    if (shown.length > 0) {
      const ol = document.createElement("ol");
      ol.className = "cards";
      ol.start = (page - 1) * PAGE_SIZE + 1;
      shown.forEach((i, n) => ol.append(cardItem(i, byId.get(F.ids[i]), n, currentSearch)));
      parts.push(ol);
    }
    if (pages > 1) {
      const pager = document.createElement("nav");
      pager.className = "pager";
      pager.setAttribute("aria-label", text("pagination"));
      if (page > 1)
        pager.append(stateLink({ page: page - 1 }, `← ${text("previous")}`, { rel: "prev" }), " ");
      const where = document.createElement("span");
      where.textContent = text("pageOf", { page, total: pages });
      pager.append(where);
      if (page < pages)
        pager.append(" ", stateLink({ page: page + 1 }, `${text("next")} →`, { rel: "next" }));
      parts.push(pager);
    }
    resultsBody.replaceChildren(...parts);
  }

  // ---------- updating ----------
  let currentSearch = null;
  let generation = 0;
  let announced = null;
  async function update(focusResults = false) {
    const id = ++generation;
    const started = performance.now();
    const q = state.q.trim();
    if (q !== "" || state.director.size > 0 || wantDirectors) await ensureDirectors();
    if (q !== "" && S === null) {
      const titles = await load("search", "search.js");
      S = titles.map(fold);
    }
    if (id !== generation) return;
    // Values the index does not know (an old or mistyped link) are dropped.
    for (const f of FACETS)
      if (facets[f])
        for (const v of state[f]) if (!facets[f].values.includes(v)) state[f].delete(v);
    currentSearch = q === "" ? null : searchMatches(q);
    const { matched, counts } = compute(currentSearch);
    lastCounts = counts;
    if (facetsBox.dataset.drawn) refreshPanel();
    clear.hidden = !active();
    const ordering = state.ordering ?? pageOrdering;
    let list = ordered(matched, ordering);
    // Without an explicit ordering, works found by a title come before those found with their director.
    if (currentSearch !== null && state.ordering === null)
      list = [
        ...list.filter((i) => currentSearch.match[i] === 1),
        ...list.filter((i) => currentSearch.match[i] === 2),
      ];
    if (active()) {
      await drawResults(list, ordering);
      if (id !== generation) return;
      results.hidden = false;
      staticPart.hidden = true;
    } else {
      results.hidden = true;
      staticPart.hidden = false;
      resultsBody.replaceChildren();
    }
    const message =
      matched.length === 0 ? text("search.none") : text("search.count", { n: matched.length });
    if (message !== announced || active()) {
      live.textContent = message;
      announced = message;
    }
    if (focusResults) resultsTitle.focus();
    document.body.dataset.browseTiming = JSON.stringify({
      ms: performance.now() - started,
      results: matched.length,
    });
  }
  let directorsLoading = null;
  // The director facet's list loads when its find box is first used (or a director or a search needs it).
  let wantDirectors = false;
  function ensureDirectors() {
    return (directorsLoading ??= load("directors", "directors.js").then((d) => {
      D = d;
      prepareDirectors();
    }));
  }

  let opening = null;
  function open() {
    return (opening ??= Promise.all([load("facets", "facets.js"), load("labels", "labels.js")])
      .then(([facetsData, labels]) => {
        F = facetsData;
        L = labels;
        prepare();
        drawPanel();
        facetsBox.dataset.drawn = "1";
      })
      .catch((error) => {
        opening = null;
        throw error;
      }));
  }
  function showFacets(show) {
    facetsBox.hidden = !show;
    opener.setAttribute("aria-expanded", String(show));
  }

  /** Applies the state: `push` or `replace` the URL (or leave it), then redraw. */
  async function commit(how, focusResults = false) {
    if (how !== null) {
      const url = urlOf(state);
      if (url !== location.pathname + location.search) history[`${how}State`](null, "", url);
    }
    try {
      await open();
      await update(focusResults);
    } catch (error) {
      // A file of the index did not load: said where the results would be, reported for whoever looks.
      live.textContent = panel.dataset.failed ?? "";
      console.error(error);
    }
  }

  // ---------- events ----------
  panel.hidden = false;
  opener.addEventListener("click", async () => {
    const show = facetsBox.hidden;
    showFacets(show);
    if (show) await commit(null);
  });
  facetsBox.addEventListener("change", (event) => {
    const box = event.target;
    if (box.type !== "checkbox") return;
    const set = state[box.name];
    if (box.checked) set.add(box.value);
    else set.delete(box.value);
    state.page = 1;
    commit("push");
  });
  let typing = 0;
  input.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      state.q = input.value;
      state.page = 1;
      commit("replace");
    }, 300);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    clearTimeout(typing);
    state.q = input.value;
    state.page = 1;
    commit("push", true);
  });
  clear.addEventListener("click", () => {
    copyState(emptyState());
    input.value = "";
    commit("push");
    input.focus();
  });
  window.addEventListener("popstate", () => {
    copyState(readUrl());
    input.value = state.q;
    commit(null);
  });

  // A URL with a state opens the panel on it (a shared, reloaded or gone-back-to view).
  copyState(readUrl());
  input.value = state.q;
  if (active()) {
    if (FACETS.some((f) => state[f].size > 0)) showFacets(true);
    commit(null);
  }
})();
