import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Fixture } from "./fixture.ts";
import type { Reply } from "./http.ts";

/**
 * The headers and ranges of docs/interface.md#routing (CONTRACT section 4), for one server of
 * the conformance suite: CORS on every API answer and on preflights, nosniff on every answer, the
 * pages' security policies, and Range / If-Range on files. Expected values come from the contract
 * and from Mozilla's HTTP Observatory's header tests (those that need no TLS), never from src/serve/.
 */

export type Get = (
  host: string,
  target: string,
  headers?: Record<string, string>,
  method?: string,
) => Promise<Reply>;

const API = "/api/v1/videos/audiovisuals/";

/** What the fixture's `site/content-security.json` adds to the pages' policy (fixture.ts). */
export const LIBRARY_SOURCES: Record<string, string[]> = {
  "frame-src": ["https://video.example"],
  "script-src": ["https://stats.example"],
};

/** A policy's directives: name → sources (lower-cased names, sources as written). */
export function parsePolicy(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/**
 * What the Observatory's tests (content-security-policy, x-content-type-options, x-frame-options,
 * referrer-policy, cookies, cross-origin-resource-sharing; strict-transport-security where the
 * site is https) would hold against a page's answer; empty when it would pass them all with the
 * best result that needs no TLS.
 */
export function observatoryProblems(
  reply: Reply,
  https: boolean,
  librarySources: Record<string, string[]> = {},
): string[] {
  const problems: string[] = [];
  const header = (name: string) => reply.headers[name] as string | undefined;
  if (header("x-content-type-options") !== "nosniff")
    problems.push(`x-content-type-options ${header("x-content-type-options")}`);
  const csp = header("content-security-policy");
  if (csp === undefined) problems.push("no content-security-policy");
  else {
    const policy = parsePolicy(csp);
    const sources = (name: string) => policy.get(name) ?? policy.get("default-src") ?? [];
    // Observatory's best grade: default-src 'none' and no unsafe source for scripts or styles.
    if ((policy.get("default-src") ?? []).join(" ") !== "'none'")
      problems.push(`default-src ${String(policy.get("default-src"))}`);
    for (const name of ["script-src", "style-src"]) {
      const unsafe = sources(name).filter((s) =>
        /^('unsafe-inline'|'unsafe-eval'|'unsafe-hashes'|data:|https?:|\*)$/i.test(s),
      );
      if (unsafe.length > 0) problems.push(`${name} allows ${unsafe.join(" ")}`);
    }
    // The allowances beyond 'self': the hosts the library named, and nothing else.
    const scripts = sources("script-src").filter((s) => s !== "'self'");
    if (scripts.join(" ") !== (librarySources["script-src"] ?? []).join(" "))
      problems.push(`script-src extras ${scripts.join(" ")}`);
    if ((policy.get("object-src") ?? []).join(" ") !== "'none'")
      problems.push(`object-src ${String(policy.get("object-src"))}`);
    for (const name of ["frame-ancestors", "base-uri", "form-action"]) {
      const value = (policy.get(name) ?? []).join(" ");
      if (value !== "'none'" && value !== "'self'") problems.push(`${name} "${value}"`);
    }
  }
  // x-frame-options: frame-ancestors above counts as implemented.
  const referrer = header("referrer-policy");
  if (
    !["no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"].includes(
      referrer ?? "",
    )
  )
    problems.push(`referrer-policy ${referrer}`);
  if (reply.headers["set-cookie"] !== undefined) problems.push("set-cookie");
  // cross-origin-resource-sharing: a page is not shared with other origins' scripts.
  const acao = header("access-control-allow-origin");
  if (acao !== undefined && acao !== "*") problems.push(`access-control-allow-origin ${acao}`);
  const hsts = header("strict-transport-security");
  if (https) {
    const age = Number(/max-age=(\d+)/.exec(hsts ?? "")?.[1] ?? 0);
    if (age < 15_552_000) problems.push(`strict-transport-security ${hsts}`);
  } else if (hsts !== undefined) problems.push(`strict-transport-security on plain http: ${hsts}`);
  return problems;
}

export function headerChecks(server: () => { name: string; get: Get; fx: Fixture }) {
  describe("headers", () => {
    it("every answer carries X-Content-Type-Options: nosniff", async () => {
      const { get, fx } = server();
      const cover = new URL(
        JSON.parse((await fx.read("domain-2.example/_api/list/plain/default/1.json")).toString())
          .results[0].cover,
      );
      const requests: [string, string, string?][] = [
        ["domain-1.example", `${API}?page=2`],
        ["domain-1.example", `${API}?page=0`],
        ["domain-1.example", `${API}1/`],
        ["domain-1.example", `${API}export_excel/`],
        ["domain-1.example", API.slice(0, -1)],
        ["domain-1.example", API, "POST"],
        ["domain-1.example", API, "OPTIONS"],
        ["domain-1.example", "/robots.txt"],
        ["domain-1.example", "/no-such-file"],
        ["domain-1.example", "/_api/list/plain/default/1.json"],
        ["domain-2.example", "/cataleg/"],
        ["domain-2.example", "/cataleg/sub"],
        ["domain-2.example", "/cataleg/no-such-page"],
        ["domain-2.example", "/cataleg/api/v1/openapi.json"],
        [cover.host, cover.pathname],
        [cover.host, "/not-media"],
      ];
      const problems: string[] = [];
      for (const [host, target, method] of requests) {
        const reply = await get(host, target, {}, method ?? "GET");
        if (reply.headers["x-content-type-options"] !== "nosniff")
          problems.push(
            `${method ?? "GET"} ${host}${target} (${reply.status}): ${String(reply.headers["x-content-type-options"])}`,
          );
      }
      expect(problems).toEqual([]);
    });

    it("every API answer carries Access-Control-Allow-Origin: * (pages, retrieve, exports, errors, redirects, 405, OpenAPI)", async () => {
      const { get } = server();
      const problems: string[] = [];
      for (const [host, base] of [
        ["domain-1.example", ""],
        ["domain-2.example", "/cataleg"],
      ] as const) {
        const api = `${base}${API}`;
        const requests: [string, string?][] = [
          [`${api}?page=2&format=api`],
          [`${api}?page=0`],
          [`${api}?format=xml`],
          [`${api}1/`],
          [`${api}9999999999/`],
          [`${api}export_excel/`],
          [`${api}unknown/`],
          [api.slice(0, -1)],
          [`${api}12`],
          [api, "DELETE"],
          [api, "HEAD"],
          [`${base}/api/v1/openapi.json`],
        ];
        for (const [target, method] of requests) {
          const reply = await get(
            host,
            target,
            { Origin: "https://library.example" },
            method ?? "GET",
          );
          if (reply.headers["access-control-allow-origin"] !== "*")
            problems.push(
              `${method ?? "GET"} ${host}${target} (${reply.status}): ${reply.headers["access-control-allow-origin"]}`,
            );
        }
      }
      expect(problems).toEqual([]);
    });

    it("answers a CORS preflight with the CORS headers, keeping the interface's OPTIONS answer", async () => {
      const { get } = server();
      for (const target of [API, `${API}1/`, `${API}export_excel/`]) {
        const reply = await get(
          "domain-1.example",
          target,
          {
            Origin: "https://library.example",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "if-none-match",
          },
          "OPTIONS",
        );
        expect(reply.status, target).toBe(200);
        expect(reply.headers.allow).toBe("GET, HEAD, OPTIONS");
        expect(reply.headers["access-control-allow-origin"]).toBe("*");
        const methods = String(reply.headers["access-control-allow-methods"]).split(/\s*,\s*/);
        expect(methods).toContain("GET");
        expect(methods).not.toContain("POST");
        expect(String(reply.headers["access-control-allow-headers"])).toMatch(
          /^\*$|if-none-match/i,
        );
        expect(reply.body.length).toBe(0);
      }
    });

    it("pages carry a policy that passes the Observatory's header tests, HSTS only on https domains", async () => {
      const { get, fx, name } = server();
      const problems: string[] = [];
      for (const [host, target] of [
        ["domain-2.example", "/cataleg/"],
        ["domain-2.example", "/cataleg/sub/"],
        ["domain-2.example", "/cataleg/missing"],
        ["domain-1.example", "/"],
        ["domain-3.example", "/"],
      ] as const) {
        // Documented (docs/serving.md#cloudfront): one policy per distribution, so HSTS only when every domain is https.
        const https =
          name === "cloudfront"
            ? fx.info.domains.every((d) => d.base_url.startsWith("https:"))
            : fx.info.domains.find((d) => d.domain === host)!.base_url.startsWith("https:");
        const reply = await get(host, target);
        const p = observatoryProblems(reply, https, LIBRARY_SOURCES);
        if (p.length > 0) problems.push(`${host}${target} (${reply.status}): ${p.join("; ")}`);
      }
      expect(problems).toEqual([]);
      // Covers on another host (domain-2's media_url) are images the policy allows.
      const policy = parsePolicy(
        String((await get("domain-2.example", "/cataleg/")).headers["content-security-policy"]),
      );
      expect(policy.get("img-src")).toContain("https://media.example");
      const own = parsePolicy(
        String((await get("domain-1.example", "/")).headers["content-security-policy"]),
      ).get("img-src");
      // CloudFront's one policy names every domain's media host.
      expect(own).toEqual(
        name === "cloudfront" ? ["'self'", "data:", "https://media.example"] : ["'self'", "data:"],
      );
      // The sources of the fixture's site/content-security.json, on every domain's pages.
      for (const [host, target] of [
        ["domain-1.example", "/"],
        ["domain-2.example", "/cataleg/es/"],
        ["domain-3.example", "/missing"],
      ] as const) {
        const sent = parsePolicy(
          String((await get(host, target)).headers["content-security-policy"]),
        );
        expect(sent.get("frame-src"), `${host}${target}`).toEqual(LIBRARY_SOURCES["frame-src"]);
        expect(sent.get("script-src"), `${host}${target}`).toEqual([
          "'self'",
          ...LIBRARY_SOURCES["script-src"]!,
        ]);
      }
    });
  });

  describe("ranges", () => {
    const target = `${API}export_excel/`;
    const rel = "domain-1.example/_api/export/export_excel.xlsx";

    it("answers Range with 206 and Content-Range, a suffix range, and 416 past the end", async () => {
      const { get, fx, name } = server();
      const bytes = await fx.read(rel);
      const part = await get("domain-1.example", target, { Range: "bytes=100-299" });
      expect(part.status).toBe(206);
      expect(part.headers["content-range"]).toBe(`bytes 100-299/${bytes.length}`);
      expect(part.body.equals(bytes.subarray(100, 300))).toBe(true);
      const tail = await get("domain-1.example", target, { Range: "bytes=-50" });
      expect([tail.status, tail.headers["content-range"]]).toEqual([
        206,
        `bytes ${bytes.length - 50}-${bytes.length - 1}/${bytes.length}`,
      ]);
      expect(tail.body.equals(bytes.subarray(bytes.length - 50))).toBe(true);
      const open = await get("domain-1.example", target, { Range: `bytes=${bytes.length - 10}-` });
      expect(open.body.equals(bytes.subarray(bytes.length - 10))).toBe(true);
      const past = await get("domain-1.example", target, { Range: `bytes=${bytes.length + 10}-` });
      expect(past.status).toBe(416);
      // S3's 416 (here s3rver's) names no length.
      if (name !== "cloudfront")
        expect(past.headers["content-range"]).toBe(`bytes */${bytes.length}`);
    });

    it("serves a range of the uncompressed bytes, of a page too; with compression accepted, a range or the whole file", async () => {
      const { get, fx, name } = server();
      const bytes = await fx.read("domain-1.example/_api/list/plain/default/2.json");
      const part = await get("domain-1.example", `${API}?page=2`, { Range: "bytes=0-99" });
      expect([part.status, part.headers["content-range"]]).toEqual([
        206,
        `bytes 0-99/${bytes.length}`,
      ]);
      expect(part.body.equals(bytes.subarray(0, 100))).toBe(true);
      const compressible = await get("domain-1.example", `${API}?page=2`, {
        Range: "bytes=0-99",
        "Accept-Encoding": "gzip",
      });
      const decoded =
        compressible.headers["content-encoding"] === "gzip"
          ? gunzipSync(compressible.body)
          : compressible.body;
      if (name === "serve" || name === "edge") expect(compressible.status).toBe(206);
      if (compressible.status === 200) {
        // nginx: gzip wins over the range (a whole answer is always allowed).
        expect(decoded.equals(bytes)).toBe(true);
      } else {
        expect(compressible.status).toBe(206);
        // Documented (docs/serving.md): workerd gzips a 206 of the uncompressed range.
        if (!name.startsWith("workerd"))
          expect(compressible.headers["content-encoding"]).toBeUndefined();
        expect(decoded.equals(bytes.subarray(0, 100))).toBe(true);
      }
    });

    it("honours If-Range: the strong ETag of the file gets the range, another validator the whole file", async () => {
      const { get, fx } = server();
      const bytes = await fx.read(rel);
      const whole = await get("domain-1.example", target);
      const etag = String(whole.headers.etag);
      expect(etag).toMatch(/^"[^"]+"$/);
      const resumed = await get("domain-1.example", target, {
        Range: "bytes=1000-",
        "If-Range": etag,
      });
      expect(resumed.status).toBe(206);
      expect(resumed.body.equals(bytes.subarray(1000))).toBe(true);
      const changed = await get("domain-1.example", target, {
        Range: "bytes=1000-",
        "If-Range": '"another-version"',
      });
      expect(changed.status).toBe(200);
      expect(changed.body.equals(bytes)).toBe(true);
    });
  });
}
