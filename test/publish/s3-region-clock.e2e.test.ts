import { createHash } from "node:crypto";
import path from "node:path";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import { publish } from "../../src/publish/publish.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import { endpointFor, namedRegion } from "../../src/publish/targets/s3-region.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { catalogue } from "../support/command.ts";
import { makeEditions, type Editions } from "./fixtures.ts";
import { useS3rver } from "../support/s3.ts";
import { startStrictFront, type FrontOptions, type StrictFront } from "./strict-front.ts";

/**
 * S3 as real stores behave, which s3rver alone does not: a bucket in another region than the
 * configured one, and a clock far from the store's, through a strict front (strict-front.ts) that
 * refuses requests as AWS S3 does, in front of s3rver.
 */

const HOUR = 3_600_000;

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site"]);
/** What a publish straight to s3rver stores: what every publish through the front must store too. */
let direct: Map<string, string>;
const fronts: StrictFront[] = [];

beforeAll(async () => {
  root = await tempDir("catalogue-s3-front-");
  editions = await makeEditions(root.dir, 30);
  await publish({
    dir: editions.before,
    target: new S3Store({ url: "s3://site/direct", endpoint: s3.endpoint, env: s3.env }),
  });
  direct = await stored("direct");
});
afterAll(async () => {
  for (const front of fronts) await front.stop();
  await root?.cleanup();
});

/** Every object under `prefix/`: its ETag, by path below the prefix (a record's, which holds its publish's times, as "record"). */
async function stored(prefix: string): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  let token: string | undefined;
  do {
    const page = await s3.client.send(
      new ListObjectsV2Command({ Bucket: "site", Prefix: `${prefix}/`, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) {
      const rel = o.Key!.slice(prefix.length + 1);
      objects.set(rel, rel.startsWith("_catalogue/records/") ? "record" : o.ETag!);
    }
    token = page.NextContinuationToken;
  } while (token !== undefined);
  return objects;
}

async function front(options: Omit<FrontOptions, "upstream" | "secret">): Promise<StrictFront> {
  const started = await startStrictFront({
    upstream: s3.endpoint,
    secret: s3.env.AWS_SECRET_ACCESS_KEY!,
    ...options,
  });
  fronts.push(started);
  return started;
}

/** The real command line; the configured region is us-east-1 (s3.env). */
async function cli(to: string, endpoint: string | undefined, env: NodeJS.ProcessEnv = s3.env) {
  const args = [
    "publish",
    "--to",
    to,
    "--dir",
    editions.before,
    ...(endpoint === undefined ? [] : ["--endpoint", endpoint]),
  ];
  return catalogue(args, { env });
}

const REGION_LINE = (to: string) =>
  `${to}: the bucket is in region eu-west-1, not us-east-1: publishing there (set AWS_REGION=eu-west-1 to go there directly)`;

describe("publish through a strict front (command line)", { timeout: 180_000 }, () => {
  for (const wrongRegion of ["malformed", "redirect"] as const) {
    it(`follows the bucket's region when S3 answers ${wrongRegion === "malformed" ? "400 AuthorizationHeaderMalformed" : "301 PermanentRedirect"}, and says so once`, async () => {
      const f = await front({ region: "eu-west-1", wrongRegion });
      const result = await cli(`s3://site/${wrongRegion}`, f.endpoint);
      expect(result.stderr.split("\n").filter(Boolean)).toEqual([
        REGION_LINE(`s3://site/${wrongRegion}`),
        expect.stringMatching(/^published to s3:\/\/site\/\w+: \d+ uploaded/),
      ]);
      expect(result.code).toBe(0);
      expect(f.refused).toEqual({
        [wrongRegion === "malformed" ? "AuthorizationHeaderMalformed" : "PermanentRedirect"]: 1,
      });
      expect([...f.regions]).toEqual(["eu-west-1"]);
      expect(await stored(wrongRegion)).toEqual(direct);
    });
  }

  it("without --endpoint, follows the bucket to its region's endpoint (AWS's hosts led to the front on loopback)", async () => {
    const f = await front({ region: "eu-west-1", clockOffsetMs: 20 * 60_000 });
    const loopback = {
      NODE_OPTIONS: `--require ${path.join(import.meta.dirname, "aws-loopback.cjs")}`,
      CATALOGUE_TEST_AWS_AT: f.endpoint,
    };
    const result = await cli("s3://site/aws", undefined, { ...s3.env, ...loopback });
    expect(result.stderr.split("\n").filter(Boolean)).toEqual([
      REGION_LINE("s3://site/aws"),
      expect.stringMatching(/^published to s3:\/\/site\/aws: \d+ uploaded/),
    ]);
    expect(result.code).toBe(0);
    // Asked for at us-east-1's endpoint and signed for it: S3 redirects.
    expect(f.refused).toEqual({ PermanentRedirect: 1 });
    expect(f.hosts).toEqual(
      new Set(["site.s3.us-east-1.amazonaws.com", "site.s3.eu-west-1.amazonaws.com"]),
    );
    expect(await stored("aws")).toEqual(direct);
  });

  for (const [label, offset] of [
    ["20 minutes ahead of", 20 * 60_000],
    ["3 hours behind", -3 * HOUR],
    ["3 hours ahead of", 3 * HOUR],
  ] as const) {
    it(`publishes when the store's clock is ${label} this machine's`, async () => {
      const f = await front({ region: "us-east-1", clockOffsetMs: offset });
      const prefix = `clock${offset}`;
      const result = await cli(`s3://site/${prefix}`, f.endpoint);
      expect(result.stderr).toMatch(
        /^published to s3:\/\/site\/clock-?\d+: \d+ uploaded, 0 skipped/,
      );
      expect(result.code).toBe(0);
      // The first request, signed by this machine's clock; every later one by the store's.
      expect(f.refused).toEqual({ RequestTimeTooSkewed: 1 });
      expect(await stored(prefix)).toEqual(direct);
    });
  }

  it("a store that refuses every request's time says so, in one line that names the clock", async () => {
    const f = await front({ region: "us-east-1", clockOffsetMs: 3 * HOUR, refuseAll: "time" });
    const result = await cli("s3://site/never", f.endpoint);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `catalogue publish: s3://site/never at ${f.endpoint} refused the time of the requests (RequestTimeTooSkewed: The difference between the request time and the current time is too large.) ` +
        "though they were signed by the store's Date (this machine's clock is 3 h 0 min behind it): check the store's clock and any proxy in front of it\n",
    );
  });

  it("a store that refuses the region it names says so, in one line", async () => {
    const f = await front({ region: "eu-west-1", refuseAll: "region" });
    const result = await cli("s3://site/never", f.endpoint);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `${REGION_LINE("s3://site/never")}\ncatalogue publish: s3://site/never at ${f.endpoint} refused requests signed for eu-west-1, the region it names for bucket site ` +
        "(AuthorizationHeaderMalformed: The authorization header is malformed; the region 'eu-west-1' is wrong; expecting 'eu-west-1'): check AWS_REGION and --endpoint\n",
    );
  });

  it("a wrong secret key with a clock 20 minutes off is refused for the credentials, not the clock", async () => {
    const f = await front({ region: "us-east-1", clockOffsetMs: 20 * 60_000 });
    const result = await cli("s3://site/never", f.endpoint, {
      ...s3.env,
      AWS_SECRET_ACCESS_KEY: "WRONG",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^catalogue publish: s3:\/\/site\/never at \S+ refused the credentials \(SignatureDoesNotMatch\): check AWS_ACCESS_KEY_ID[^\n]*\n$/,
    );
    expect(f.refused).toEqual({ RequestTimeTooSkewed: 1, SignatureDoesNotMatch: 1 });
  });
});

describe("S3 target through a strict front", { timeout: 60_000 }, () => {
  const target = (prefix: string, endpoint: string, notices: string[]) =>
    new S3Store({
      url: `s3://site/${prefix}`,
      endpoint,
      env: s3.env,
      retry: { attempts: 2, baseMs: 5 },
      notice: (line) => notices.push(line),
    });

  for (const wrongRegion of ["malformed", "redirect"] as const) {
    it(`finds the region in the body alone (${wrongRegion === "malformed" ? "its Region" : "its Endpoint"}), and the clock 3 hours off in its Date`, async () => {
      const f = await front({
        region: "eu-west-1",
        wrongRegion,
        regionHeader: false,
        clockOffsetMs: -3 * HOUR,
      });
      const notices: string[] = [];
      const prefix = `body-${wrongRegion}`;
      await publish({
        dir: editions.before,
        target: target(prefix, f.endpoint, notices),
        concurrency: 8,
      });
      expect(notices).toEqual([REGION_LINE(`s3://site/${prefix}`)]);
      // The refusal's Date set the clock too: no request was refused for its time.
      expect(f.refused).toEqual({
        [wrongRegion === "malformed" ? "AuthorizationHeaderMalformed" : "PermanentRedirect"]: 1,
      });
      expect(await stored(prefix)).toEqual(direct);
    });
  }

  const file = (i: number) => {
    const bytes = Buffer.from(`{"n":${i}}`);
    return {
      path: `f${i}.json`,
      size: bytes.length,
      md5: createHash("md5").update(bytes).digest("hex"),
      abs: null,
      bytes,
      contentType: "application/json",
      cacheControl: "no-store",
    };
  };

  for (const [label, options, refusal] of [
    ["for their region", { region: "eu-west-1" }, "AuthorizationHeaderMalformed"],
    [
      "for their time (the store's in the Date header)",
      { region: "us-east-1", clockOffsetMs: 3 * HOUR, tellsTime: "date" },
      "RequestTimeTooSkewed",
    ],
    [
      "for their time (the store's in the ServerTime element)",
      { region: "us-east-1", clockOffsetMs: -3 * HOUR, tellsTime: "body" },
      "RequestTimeTooSkewed",
    ],
  ] as const) {
    it(`uploads refused all at once ${label} are each sent again, signed anew`, async () => {
      const f = await front(options);
      const notices: string[] = [];
      const prefix = `uploads-${refusal}-${options.tellsTime ?? ""}`;
      const t = target(prefix, f.endpoint, notices);
      // Uploads first (no listing has set the region or the clock), all in flight together.
      await Promise.all(Array.from({ length: 12 }, (_, i) => t.put(file(i))));
      expect(notices).toHaveLength(refusal === "AuthorizationHeaderMalformed" ? 1 : 0);
      expect(f.refused).toEqual({ [refusal]: 12 });
      expect(f.forwarded.PUT).toBe(12);
      expect(t.requests).toBe(24);
      expect((await stored(prefix)).size).toBe(12);
    });
  }

  it("a store whose answers tell no time cannot set the clock: the error says to set this machine's", async () => {
    const f = await front({ region: "us-east-1", clockOffsetMs: 3 * HOUR, tellsTime: "none" });
    const failure = target("nodate", f.endpoint, []).get("a.json");
    await expect(failure).rejects.toThrow(UserError);
    await expect(failure).rejects.toThrow(
      / refused the time of the requests \(RequestTimeTooSkewed: [^)]*\) and told no time of its own to set the clock by: set this machine's clock \(NTP\)$/,
    );
    expect(f.refused).toEqual({ RequestTimeTooSkewed: 1 });
  });
});

describe("the region a refusal names", () => {
  const refusal = (
    name: string,
    status: number,
    fields: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => ({ name, $metadata: { httpStatusCode: status }, $response: { headers }, ...fields });

  it("from the header, the Region element or the regional Endpoint", () => {
    expect(namedRegion(refusal("AuthorizationHeaderMalformed", 400, { Region: "eu-west-1" }))).toBe(
      "eu-west-1",
    );
    expect(
      namedRegion(
        refusal("PermanentRedirect", 301, { Endpoint: "site.s3.ap-southeast-2.amazonaws.com" }),
      ),
    ).toBe("ap-southeast-2");
    expect(
      namedRegion(
        refusal("PermanentRedirect", 301, { Endpoint: "site.s3-us-west-2.amazonaws.com" }),
      ),
    ).toBe("us-west-2");
    expect(
      namedRegion(refusal("Unknown", 400, {}, { "x-amz-bucket-region": "eu-central-1" })),
    ).toBe("eu-central-1");
    expect(
      namedRegion(refusal("Unknown", 301, {}, { "x-amz-bucket-region": "eu-central-1" })),
    ).toBe("eu-central-1");
  });

  it("none from answers that are not about the region, or name none", () => {
    // S3 sends the header on other answers too: an AccessDenied is no wrong region.
    expect(
      namedRegion(refusal("AccessDenied", 403, {}, { "x-amz-bucket-region": "eu-west-1" })),
    ).toBeUndefined();
    expect(
      namedRegion(refusal("NoSuchKey", 404, {}, { "x-amz-bucket-region": "eu-west-1" })),
    ).toBeUndefined();
    expect(namedRegion(refusal("AuthorizationHeaderMalformed", 400, {}))).toBeUndefined();
    expect(
      namedRegion(refusal("PermanentRedirect", 301, { Endpoint: "example.org" })),
    ).toBeUndefined();
    expect(
      namedRegion(refusal("AuthorizationHeaderMalformed", 400, { Region: "<script>" })),
    ).toBeUndefined();
    expect(namedRegion(new Error("ECONNRESET"))).toBeUndefined();
  });

  it("moves an --endpoint that is AWS's own regional one to the named region, and no other", () => {
    expect(endpointFor("https://s3.us-east-1.amazonaws.com", "eu-west-1")).toBe(
      "https://s3.eu-west-1.amazonaws.com",
    );
    expect(endpointFor("https://s3.dualstack.us-east-1.amazonaws.com/", "eu-west-1")).toBe(
      "https://s3.dualstack.eu-west-1.amazonaws.com/",
    );
    expect(endpointFor("https://s3-us-west-2.amazonaws.com", "eu-west-1")).toBe(
      "https://s3-eu-west-1.amazonaws.com",
    );
    expect(endpointFor("http://127.0.0.1:9000", "eu-west-1")).toBe("http://127.0.0.1:9000");
    expect(endpointFor("https://storage.example.org/s3", "eu-west-1")).toBe(
      "https://storage.example.org/s3",
    );
    expect(endpointFor(undefined, "eu-west-1")).toBeUndefined();
  });
});
