// The search box of the listing pages. The form is hidden in the HTML and shown here, so a
// browser without JavaScript shows no control that cannot work. Pagefind (about 100 KB with its
// WebAssembly) loads on first use only. Results are drawn with textContent: titles come from
// the CSVs and are never treated as markup. A large catalogue's index comes in parts (a rebuild
// indexes again only the parts whose works changed), listed in parts.json beside pagefind.js:
// they are merged into one search.
(() => {
  const script = document.currentScript;
  const form = document.querySelector("[data-search]");
  if (!script || !form) return;
  const input = form.querySelector('input[type="search"]');
  const output = form.querySelector("[data-search-results]");
  const bundle = new URL(script.dataset.pagefind, document.baseURI);
  let loading = null;
  const partList = () =>
    fetch(new URL("parts.json", bundle))
      .then((response) => (response.ok ? response.json() : { parts: [] }))
      .then((list) => list.parts)
      .catch(() => []);
  const load = () => (loading ??= Promise.all([import(bundle.href), partList()]).then(async ([pagefind, parts]) => {
    await pagefind.options({ excerptLength: 0 });
    await Promise.all(parts.map((part) => pagefind.mergeIndex(new URL(part, bundle).pathname, { excerptLength: 0 })));
    return pagefind;
  }));
  let latest = 0;

  async function run() {
    const term = input.value.trim();
    const id = ++latest;
    if (term === "") {
      output.replaceChildren();
      return;
    }
    const pagefind = await load();
    const search = await pagefind.debouncedSearch(term, {}, 150);
    if (search === null || id !== latest) return;
    const found = await Promise.all(search.results.slice(0, 10).map((result) => result.data()));
    if (id !== latest) return;
    const count = document.createElement("p");
    const n = search.results.length;
    count.textContent = n === 0 ? form.dataset.none : n === 1 ? form.dataset.countOne : form.dataset.count.replace("{n}", String(n));
    const list = document.createElement("ol");
    for (const page of found) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = page.url;
      link.textContent = page.meta.title;
      item.append(link);
      if (page.meta.director) item.append(` · ${page.meta.director}`);
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
})();
