// The search box of the listing pages. The form is hidden in the HTML and shown here, so a
// browser without JavaScript shows no control that cannot work. Results are drawn with
// textContent: titles come from the CSVs and are never treated as markup.
//
// Served over HTTP, Pagefind searches (about 100 KB with its WebAssembly, loaded on first use).
// A large catalogue's index comes in parts (a rebuild indexes again only the parts whose works
// changed), listed in parts.json beside pagefind.js: they are merged into one search.
//
// From file:// Pagefind cannot load (the browser refuses import() and fetch() there). An
// offline archive marks this script with data-offline-search, the path of an index made for
// it (titles, directors, page paths, assigned to a global by a plain script, which file://
// allows), loaded on first use and matched here word by word. Without it, a page opened from
// file:// cannot search, and the box stays hidden.
(() => {
  const script = document.currentScript;
  const form = document.querySelector("[data-search]");
  if (!script || !form) return;
  const fromFile = location.protocol === "file:";
  if (fromFile && !script.dataset.offlineSearch) return;
  const input = form.querySelector('input[type="search"]');
  const output = form.querySelector("[data-search-results]");
  const search = fromFile
    ? offlineSearch(new URL(script.dataset.offlineSearch, document.baseURI))
    : pagefindSearch(new URL(script.dataset.pagefind, document.baseURI));
  let latest = 0;

  async function run() {
    const term = input.value.trim();
    const id = ++latest;
    if (term === "") {
      output.replaceChildren();
      return;
    }
    let found;
    try {
      found = await search(term);
    } catch (error) {
      // The index did not load: a box that cannot work is not shown.
      form.hidden = true;
      throw error;
    }
    if (found === null || id !== latest) return;
    const count = document.createElement("p");
    const n = found.count;
    count.textContent =
      n === 0
        ? form.dataset.none
        : n === 1
          ? form.dataset.countOne
          : form.dataset.count.replace("{n}", n.toLocaleString(document.documentElement.lang));
    const list = document.createElement("ol");
    for (const work of found.works) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = work.url;
      link.textContent = work.title;
      item.append(link);
      if (work.director) item.append(` · ${work.director}`);
      list.append(item);
    }
    output.replaceChildren(count, ...(n > 0 ? [list] : []));
  }

  form.hidden = false;
  input.addEventListener("input", run);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });

  /** Pagefind's search: the first ten results with the count, or null when a later search superseded it. */
  function pagefindSearch(bundle) {
    let loading = null;
    const partList = () =>
      fetch(new URL("parts.json", bundle))
        .then((response) => (response.ok ? response.json() : { parts: [] }))
        .then((list) => list.parts)
        .catch(() => []);
    const load = () =>
      (loading ??= Promise.all([import(bundle.href), partList()]).then(
        async ([pagefind, parts]) => {
          await pagefind.options({ excerptLength: 0 });
          await Promise.all(
            parts.map((part) =>
              pagefind.mergeIndex(new URL(part, bundle).pathname, { excerptLength: 0 }),
            ),
          );
          return pagefind;
        },
      ));
    return async (term) => {
      const pagefind = await load();
      const search = await pagefind.debouncedSearch(term, {}, 150);
      if (search === null) return null;
      const pages = await Promise.all(search.results.slice(0, 10).map((result) => result.data()));
      return {
        count: search.results.length,
        works: pages.map((page) => ({
          url: page.url,
          title: page.meta.title,
          director: page.meta.director,
        })),
      };
    };
  }

  /**
   * The offline index's search: works whose title and director hold every word typed as the start
   * of one of their words (accents and case ignored), those matched by the title alone first,
   * each group in the index's order (title order).
   */
  function offlineSearch(indexUrl) {
    // " word word", accents and case folded: a word starts wherever a space precedes it.
    const words = (text) =>
      " " +
      text
        .normalize("NFD")
        .replace(/\p{M}/gu, "")
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, " ")
        .trim();
    let loading = null;
    const load = () =>
      (loading ??= new Promise((resolve, reject) => {
        const tag = document.createElement("script");
        tag.src = indexUrl.href;
        tag.charset = "utf-8";
        tag.onload = () => resolve(prepare(self.catalogueSearchIndex));
        tag.onerror = () => reject(new Error(`the search index ${tag.src} did not load`));
        document.head.append(tag);
      }));
    // The words of every title and director are folded once, on loading.
    function prepare(index) {
      const directors = index.directors.map(words);
      const works = index.works.map(([title, d, id, slug]) => ({
        title,
        d,
        id,
        slug,
        inTitle: words(title),
        inDirector: d >= 0 ? directors[d] : "",
      }));
      return { page: index.page, directors: index.directors, works };
    }
    return async (term) => {
      const { page, directors, works } = await load();
      const terms = words(term)
        .split(" ")
        .slice(1)
        .filter(Boolean)
        .map((word) => " " + word);
      const byTitle = [];
      const byBoth = [];
      let count = 0;
      if (terms.length > 0) {
        for (const work of works) {
          const titled = terms.every((t) => work.inTitle.includes(t));
          if (
            !titled &&
            !terms.every((t) => work.inTitle.includes(t) || work.inDirector.includes(t))
          )
            continue;
          count++;
          const group = titled ? byTitle : byBoth;
          if (group.length < 10) group.push(work);
        }
      }
      const url = (work) =>
        new URL(page.replace("{id}", work.id).replace("{slug}", work.slug), indexUrl).href;
      return {
        count,
        works: [...byTitle, ...byBoth].slice(0, 10).map((work) => ({
          url: url(work),
          title: work.title,
          director: directors[work.d] ?? null,
        })),
      };
    };
  }
})();
