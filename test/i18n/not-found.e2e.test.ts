import { describe, expect, it } from "vitest";
import { netlifyRules } from "../../src/edge/netlify.ts";
import type { BuildInfo, DomainEntry } from "../../src/output/build-info.ts";
import { domainRoutes, notFoundPageFor } from "../../src/serve/routes.ts";

/** The 404 page in the language of the path's prefix; served by every server in test/serve/conformance.e2e.test.ts. */

const entry = (languages?: string[]): DomainEntry => ({
  domain: "uno.example",
  name: "Uno",
  base_url: "https://uno.example/cataleg",
  media_url: "https://uno.example/cataleg/media",
  locale: "ca",
  default_ordering: "name",
  base_path: "/cataleg",
  media_folder: "uno.example/cataleg/media",
  count: 1,
  total_pages: 1,
  exports: {},
  site: true,
  position: 0,
  date: "2026-11-20",
  ...(languages ? { languages } : {}),
});

describe("the 404 page of a path", () => {
  it("is its language version's under the version's folder, else the domain's", () => {
    const routes = domainRoutes(entry(["es", "va"]));
    expect(notFoundPageFor(routes, "/cataleg/es/x/")).toBe("/cataleg/es/404.html");
    expect(notFoundPageFor(routes, "/cataleg/va")).toBe("/cataleg/va/404.html");
    expect(notFoundPageFor(routes, "/cataleg/esx/")).toBe("/cataleg/404.html");
    expect(notFoundPageFor(routes, "/cataleg/x/es/")).toBe("/cataleg/404.html");
    expect(notFoundPageFor(domainRoutes(entry()), "/cataleg/es/x/")).toBe("/cataleg/404.html");
  });

  it("is named in Netlify's rules, after every rewrite and not forced (files first)", () => {
    const info: BuildInfo = {
      generator: "catalogue",
      version: 1,
      date: "2026-11-20",
      domains: [entry(["es", "va"])],
    };
    const lines = netlifyRules(info, "uno.example").redirects.trimEnd().split("\n");
    expect(lines.slice(-2)).toEqual([
      "/cataleg/es/*  /cataleg/es/404.html  404",
      "/cataleg/va/*  /cataleg/va/404.html  404",
    ]);
    const single: BuildInfo = { ...info, domains: [entry()] };
    expect(
      netlifyRules(single, "uno.example")
        .redirects.split("\n")
        .filter((line) => line.endsWith("/404.html  404")),
    ).toEqual([]);
  });
});
