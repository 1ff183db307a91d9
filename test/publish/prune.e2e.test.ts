import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from "@aws-sdk/client-s3";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../src/publish/publish.ts";
import { decodeRecord, encodeRecord } from "../../src/publish/records/records.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import type { Store } from "../../src/publish/targets/target.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { makeEditions, type Editions } from "./fixtures.ts";
import { useS3rver } from "../support/s3.ts";

let root: { dir: string; cleanup: () => Promise<void> };
let editions: Editions;
const s3 = useS3rver(["site"]);

beforeAll(async () => {
  root = await tempDir("catalogue-prune-");
  editions = await makeEditions(root.dir, 30);
});
afterAll(async () => {
  await root?.cleanup();
});

const put = (key: string) =>
  s3.client.send(
    new PutObjectCommand({
      Bucket: "site",
      Key: `prune/${key}`,
      Body: "x",
      ContentType: "image/jpeg",
    }),
  );
async function held(folder: string): Promise<string[]> {
  const page = await s3.client.send(
    new ListObjectsV2Command({ Bucket: "site", Prefix: `prune/${folder}` }),
  );
  return (page.Contents ?? []).map((o) => o.Key!.slice("prune/".length)).sort();
}

/** An S3 target on which another shard uploads an image while the media folder is being listed. */
function racing(upload: string | null = null): Store {
  const target = new S3Store({
    url: "s3://site/prune",
    endpoint: s3.endpoint,
    env: s3.env,
    retry: { attempts: 2, baseMs: 5 },
  });
  const list = target.list.bind(target);
  let raced = false;
  return Object.assign(target, {
    list: async (prefix: string) => {
      if (prefix === "domain-1.example/media/" && upload !== null && !raced) {
        raced = true;
        await put(upload);
      }
      return list(prefix);
    },
  });
}

describe("--prune-media", { timeout: 120_000 }, () => {
  it("removes media no record lists, never what was written after it started; the dry run and the guard change nothing", async () => {
    await publish({ dir: editions.before, target: racing() });
    const before = await held("domain-1.example/media/");
    await put("domain-1.example/media/dropped-480.jpeg");
    // Listings date objects to the second: the prune starts in a later one.
    await sleep(1100);

    const dry = await publish({
      dir: editions.before,
      target: racing(),
      domains: ["domain-2.example"],
      pruneMedia: true,
      dryRun: true,
    });
    expect(dry.pruned).toEqual(["domain-1.example/media/dropped-480.jpeg"]);
    await expect(
      publish({
        dir: editions.before,
        target: racing(),
        domains: ["domain-2.example"],
        pruneMedia: true,
        maxDeletes: 0,
      }),
    ).rejects.toThrow(
      /--prune-media would delete 1 of the \d+ media files at s3:\/\/site\/prune, more than --max-deletes 0; nothing was changed/,
    );
    expect(await held("domain-1.example/media/")).toEqual(
      [...before, "domain-1.example/media/dropped-480.jpeg"].sort(),
    );

    // A shard of domain-2 prunes the folder of domain-1, while another uploads an image there.
    const pruned = await publish({
      dir: editions.before,
      target: racing("domain-1.example/media/uploading-480.jpeg"),
      domains: ["domain-2.example"],
      pruneMedia: true,
    });
    expect(pruned.pruned).toEqual(["domain-1.example/media/dropped-480.jpeg"]);
    expect(pruned.deleted).toBe(1);
    expect(await held("domain-1.example/media/")).toEqual(
      [...before, "domain-1.example/media/uploading-480.jpeg"].sort(),
    );
  });

  it("reads again a record caught half written by a shard rewriting it, and stops on one that stays foreign", async () => {
    // s3rver, like a folder, rewrites an object in place: a read meanwhile may get a part of it.
    // Only the prune reads the record of domain-1 here (the publish is scoped to domain-2).
    const cuts = { count: 0 };
    function halfRead(times: number): Store {
      const target = racing();
      const get = target.get.bind(target);
      cuts.count = 0;
      return Object.assign(target, {
        get: async (rel: string) => {
          const bytes = await get(rel);
          if (
            bytes === null ||
            rel !== "_catalogue/records/domain-1.example.tsv" ||
            cuts.count >= times
          )
            return bytes;
          cuts.count++;
          return bytes.subarray(0, 10);
        },
      });
    }
    await publish({ dir: editions.before, target: racing() });
    const once = await publish({
      dir: editions.before,
      target: halfRead(1),
      domains: ["domain-2.example"],
      pruneMedia: true,
      dryRun: true,
    });
    expect(cuts.count).toBe(1);
    expect(once.pruned).not.toContain("domain-1.example/media/dropped-480.jpeg");
    await expect(
      publish({
        dir: editions.before,
        target: halfRead(Infinity),
        domains: ["domain-2.example"],
        pruneMedia: true,
        dryRun: true,
      }),
    ).rejects.toThrow(
      /--prune-media: s3:\/\/site\/prune: _catalogue\/records\/domain-1\.example\.tsv is not a record of this version of catalogue; nothing was pruned/,
    );
  });

  it("frees the media a domain nobody publishes left pending, though a shard's lease is released while the prune reads it", async () => {
    await publish({ dir: editions.before, target: racing() });
    // domain-1's record as a scoped publish leaves it when an image it dropped is in a folder
    // another domain uses: pending, the record `updating`.
    const recordKey = "prune/_catalogue/records/domain-1.example.tsv";
    const stored = await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: recordKey }));
    const record = decodeRecord(await stored.Body!.transformToString())!;
    const dropped = "domain-1.example/media/left-pending-480.jpeg";
    await put(dropped);
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: recordKey,
        Body: encodeRecord({ ...record, state: "updating", pending: new Set([dropped]) }),
      }),
    );
    // A shard's lease, listed by the prune and gone when it reads it (that shard just finished).
    const released = "_catalogue/leases/zz-released.json";
    await s3.client.send(
      new PutObjectCommand({
        Bucket: "site",
        Key: `prune/${released}`,
        Body: JSON.stringify({ scope: ["domain-3.example"] }),
      }),
    );
    await sleep(1100);
    const target = racing();
    const get = target.get.bind(target);
    const finishing = Object.assign(target, {
      get: async (rel: string) => (rel === released ? null : get(rel)),
    });
    try {
      const pruned = await publish({
        dir: editions.before,
        target: finishing,
        domains: ["domain-2.example"],
        pruneMedia: true,
      });
      expect(pruned.pruned).toContain(dropped);
      const fixed = decodeRecord(
        await (
          await s3.client.send(new GetObjectCommand({ Bucket: "site", Key: recordKey }))
        ).Body!.transformToString(),
      )!;
      expect({ state: fixed.state, pending: [...fixed.pending] }).toEqual({
        state: "complete",
        pending: [],
      });
    } finally {
      await s3.client.send(new DeleteObjectCommand({ Bucket: "site", Key: `prune/${released}` }));
    }
  });

  it("is refused for an archive", async () => {
    const { openTarget } = await import("../../src/publish/open-target.ts");
    const target = await openTarget(`${root.dir}/copy.zip`, { dir: editions.before, env: {} });
    await expect(publish({ dir: editions.before, target, pruneMedia: true })).rejects.toThrow(
      /--prune-media: .*copy\.zip is an archive/,
    );
  });
});
