import type { Problem } from "../errors.ts";
import { API_FOLDER, SITE_FILES, SITE_FOLDERS } from "../util/product-paths.ts";

/**
 * Each path of a host has one owner. A domain's site owns its base path and everything below it
 * but what it hands on: the catalogue's own folders (the API, the pages of each kind, assets,
 * the search index), its language versions, and its media folder if it lies there. Media folders
 * own theirs. Servers pick a location by path, so two owners of one path (or one inside the
 * other's) would answer each other's requests: a media folder on another library's site gives
 * its pages a year of immutable caching, on an API path nginx refuses the configuration. Checked
 * once per build from domains.csv (and the own pages of the site folder against it), as a table
 * of every owner by host and path.
 */

/** A domain's paths, as domains.csv gives them. */
export interface SitePaths {
  domain: string;
  base_url: string;
  media_url: string;
  /** The folders of its language versions (content/languages.ts `siteLanguage`), product paths left out. */
  folders: readonly string[];
  /** Its line in domains.csv, when known. */
  line?: number;
}

type Kind = "site" | "api" | "product" | "language" | "media";

interface Owner {
  host: string;
  /** "" (the host's root) or `/a/b`, lowercase: Caddy's path matcher and some file systems ignore case. */
  path: string;
  kind: Kind;
  /** The domain it belongs to (an index into the table's sites). */
  site: number;
  /** The folder's name (product, language), for messages. */
  name?: string;
}

/** The owners of every host's paths, by host then path. */
export class OwnerTable {
  private readonly byHost = new Map<string, Map<string, Owner[]>>();
  /** Every owner, with the domains it belongs to (several for a shared media folder). */
  private readonly shares = new Map<Owner, number[]>();
  /** The media folders of each host. */
  private readonly media = new Map<string, Owner[]>();

  /** Each domain's site root: its hosts (its name, base_url's host) and base path. */
  private readonly roots: { hosts: Set<string>; path: string }[] = [];

  constructor(readonly sites: readonly SitePaths[]) {
    sites.forEach((site, index) => {
      const base = new URL(site.base_url);
      const path = folded(base.pathname);
      // The files are served for the domain's name; links point at base_url's host.
      const hosts = new Set([site.domain, base.hostname]);
      this.roots.push({ hosts, path });
      for (const host of hosts) {
        this.add({ host, path, kind: "site", site: index });
        this.add({ host, path: `${path}/${API_FOLDER}`, kind: "api", site: index });
        for (const name of [...SITE_FOLDERS, ...SITE_FILES.filter((f) => f !== "robots.txt")])
          this.add({ host, path: `${path}/${name}`, kind: "product", site: index, name });
        for (const name of site.folders)
          this.add({ host, path: `${path}/${name}`, kind: "language", site: index, name });
      }
      // robots.txt is at the host's root, whatever the base path.
      this.add({
        host: site.domain,
        path: "/robots.txt",
        kind: "product",
        site: index,
        name: "robots.txt",
      });
      const media = new URL(site.media_url);
      this.add({ host: media.hostname, path: folded(media.pathname), kind: "media", site: index });
    });
  }

  private add(owner: Owner): void {
    let paths = this.byHost.get(owner.host);
    if (paths === undefined) this.byHost.set(owner.host, (paths = new Map<string, Owner[]>()));
    let here = paths.get(owner.path);
    if (here === undefined) paths.set(owner.path, (here = []));
    // One media folder shared by several domains is one owner (a network's common covers).
    const shared = owner.kind === "media" ? here.find((o) => o.kind === "media") : undefined;
    if (shared !== undefined) {
      this.shares.get(shared)!.push(owner.site);
      return;
    }
    if (here.some((o) => o.site === owner.site && o.kind === owner.kind)) return;
    here.push(owner);
    this.shares.set(owner, [owner.site]);
    if (owner.kind === "media") {
      let media = this.media.get(owner.host);
      if (media === undefined) this.media.set(owner.host, (media = []));
      media.push(owner);
    }
  }

  /** Whether an owner lies below its own domain's site root (on a host the site is served on). */
  private inOwnSite(owner: Owner): boolean {
    const root = this.roots[owner.site]!;
    return root.hosts.has(owner.host) && owner.path.startsWith(`${root.path}/`);
  }

  /** The owners of `path` and of every path above it on `host`. */
  private above(host: string, path: string): Owner[] {
    const paths = this.byHost.get(host);
    if (paths === undefined) return [];
    const found: Owner[] = [];
    for (let end = 0; end !== -1; end = path.indexOf("/", end + 1))
      found.push(...(paths.get(path.slice(0, end)) ?? []));
    if (path !== "") found.push(...(paths.get(path) ?? []));
    return found;
  }

  /** Every path claimed twice: one problem at the claimant's line (the media, or the nested site). */
  problems(file: string): Problem[] {
    // By claimant: the owner as one of its domains' (a shared media folder is each domain's).
    const claims = new Map<string, { claimant: Owner; others: Owner[] }>();
    const owners = [...this.shares.keys()];
    const order = new Map(owners.map((owner, i) => [owner, i]));
    for (const owner of owners) {
      for (const other of this.above(owner.host, owner.path)) {
        // Each pair once: an equal path from the earlier owner's side only.
        if (other === owner || (other.path === owner.path && order.get(other)! > order.get(owner)!))
          continue;
        for (const a of this.shares.get(other)!) {
          for (const b of this.shares.get(owner)!) {
            const above = { ...other, site: a };
            const below = { ...owner, site: b };
            const claimant = claimantOf(above, below);
            if (claimant === null) continue;
            // Media inside their own site meet another domain's paths only where that site
            // meets the other's (or the other's media take its paths): reported there.
            if (above.site !== below.site && claimant.kind === "media" && this.inOwnSite(claimant))
              continue;
            const key = `${order.get(claimant === below ? owner : other)!}:${claimant.site}`;
            const entry = claims.get(key) ?? { claimant, others: [] };
            entry.others.push(claimant === below ? above : below);
            claims.set(key, entry);
          }
        }
      }
    }
    const problems: Problem[] = [];
    for (const { claimant, others } of claims.values()) {
      const site = this.sites[claimant.site]!;
      const other = mostSpecific(claimant, others);
      const media = claimant.kind === "media";
      problems.push({
        file,
        ...(site.line !== undefined ? { line: site.line } : {}),
        column: media ? "media_url" : "base_url",
        message: `${media ? site.media_url : site.base_url} ${relation(claimant, other)} ${this.describe(other, claimant.site)}: a path has one owner, and a server would answer the one's requests with the other's files; ${
          media
            ? `give the media a folder of their own (the default is {base_url}/media)`
            : `give each domain its own host, or base paths that do not hold one another`
        }`,
      });
    }
    return problems;
  }

  /**
   * The own pages (`dir` below a site root, like `covers/`) that would take a path someone owns
   * on a domain's host: a language version, a media folder, a folder of the catalogue's. One
   * problem per page file, naming the first domain where it would.
   */
  pageProblems(pages: readonly { dir: string; file: string }[]): Problem[] {
    const problems: Problem[] = [];
    for (const page of pages) {
      const found: string[] = [];
      this.sites.forEach((site, index) => {
        const base = new URL(site.base_url);
        const path = `${folded(base.pathname)}/${folded(page.dir).replace(/\/+$/, "")}`;
        for (const host of new Set([site.domain, base.hostname])) {
          // Its own folders are one segment below its root: above the page's path or on it.
          const owner =
            this.above(host, path).find(
              (o) => o.site === index && o.kind !== "site" && o.kind !== "media",
            ) ?? this.media.get(host)?.find((o) => nested(o.path, path));
          if (owner !== undefined) {
            found.push(
              `its address ${site.base_url}/${page.dir} is ${this.describe(owner, index)}`,
            );
            return;
          }
        }
      });
      if (found.length > 0)
        problems.push({
          file: page.file,
          message: `${found[0]!}${found.length > 1 ? ` (and on ${found.length - 1} other domain(s))` : ""}: choose another path for this page`,
        });
    }
    return problems;
  }

  private describe(owner: Owner, from: number): string {
    const site = this.sites[owner.site]!;
    const whose = owner.site === from ? `${site.domain}'s own` : `${site.domain}'s`;
    const where =
      owner.site === from || site.line === undefined ? "" : ` (domains.csv line ${site.line})`;
    switch (owner.kind) {
      case "site":
        return `${whose} site${where}`;
      case "api":
        return `${whose} API${where}`;
      case "product":
        return `the catalogue's own /${owner.name} on ${site.domain}${where}`;
      case "language":
        return `${whose} version in "${owner.name}" (languages)${where}`;
      case "media":
        return `${whose} media folder${where}`;
    }
  }
}

/** Lowercase, without a trailing slash: "" for the root. */
const folded = (path: string) => path.toLowerCase().replace(/\/+$/, "");

/** Whether one path is the other or holds it, by whole segments. */
const nested = (a: string, b: string) => a === b || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);

/**
 * Which of two owners on one host, `above` holding (or equal to) `below`, takes a path it may
 * not: the media folder when one is involved, the nested site when two domains' sites meet. Null
 * when the two may share the path: a site and what it hands on, its media below its root, one
 * media folder shared by several domains.
 */
function claimantOf(above: Owner, below: Owner): Owner | null {
  const media = above.kind === "media" ? above : below.kind === "media" ? below : null;
  if (above.site === below.site) {
    if (media === null) return null;
    // Its media anywhere below its site root but in a folder the site hands on.
    if (above.kind === "site" && above.path !== below.path) return null;
    return media;
  }
  if (above.kind === "media" && below.kind === "media")
    return above.path === below.path ? null : below;
  if (media !== null) return media;
  return above.kind === "site" && below.kind === "site" ? below : null;
}

/** The owner a message names: the deepest of those holding the claimant, else the shallowest it holds. */
function mostSpecific(claimant: Owner, others: readonly Owner[]): Owner {
  const depth = (o: Owner) => o.path.split("/").length;
  const holding = others.filter(
    (o) => nested(o.path, claimant.path) && depth(o) <= depth(claimant),
  );
  if (holding.length > 0) return holding.reduce((best, o) => (depth(o) > depth(best) ? o : best));
  return others.reduce((best, o) => (depth(o) < depth(best) ? o : best));
}

function relation(claimant: Owner, other: Owner): string {
  if (claimant.path === other.path) return other.kind === "site" ? "is the root of" : "is";
  return claimant.path.startsWith(`${other.path}/`) || other.path === "" ? "is inside" : "holds";
}
