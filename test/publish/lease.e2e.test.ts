import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import { md5 } from "../../src/util/hash.ts";
import { DirectoryStore } from "../../src/publish/targets/directory.ts";
import { acquireLease, LEASES_FOLDER, type Lease } from "../../src/publish/records/lease.ts";
import { S3Store } from "../../src/publish/targets/s3.ts";
import type { Store } from "../../src/publish/targets/target.ts";
import { tempDir } from "../helpers/catalogue.ts";
import { useS3rver } from "../support/s3.ts";

let root: { dir: string; cleanup: () => Promise<void> };
const s3 = useS3rver(["leases"]);
beforeAll(async () => {
  root = await tempDir("catalogue-lease-");
});
afterAll(async () => {
  await root?.cleanup();
});

let places = 0;
const stores: Record<string, () => Store> = {
  directory: () => new DirectoryStore(path.join(root.dir, `place-${++places}`)),
  s3: () =>
    new S3Store({
      url: `s3://leases/place-${++places}`,
      endpoint: s3.endpoint,
      env: s3.env,
      retry: { attempts: 3, baseMs: 5 },
    }),
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lease object as a publisher writes it, for a publisher that is not running. */
async function plantLease(store: Store, scope: string[], owner = "ci-runner-7 pid 4242") {
  const bytes = Buffer.from(
    JSON.stringify({ owner, started: "2026-11-23T03:00:00.000Z", scope }) + "\n",
  );
  await store.put({
    path: `${LEASES_FOLDER}0-killed.json`,
    size: bytes.length,
    md5: md5(bytes),
    abs: null,
    bytes,
    contentType: "application/json",
    cacheControl: "no-store",
  });
}

/** The store, with one of its operations failing as a dropped connection would. */
function failingStore(store: Store, failing: "remove" | "list"): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      if (name === failing) return async () => Promise.reject(new Error("injected failure"));
      const value = Reflect.get(target, name, receiver) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

for (const [kind, open] of Object.entries(stores)) {
  describe(`leases on a ${kind} target`, { timeout: 60_000 }, () => {
    it("never lets two overlapping publishers hold at once, however they start", async () => {
      const store = open();
      const held: { from: number; to: number }[] = [];
      const refusals: string[] = [];
      // Six publishers of overlapping scopes start together; each holds for a while, then lets go.
      const scopes = [["a"], ["a", "b"], ["*"], ["b", "a"], ["a"], ["c", "a"]];
      await Promise.all(
        scopes.map(async (scope) => {
          let lease: Lease;
          try {
            lease = await acquireLease(store, scope, {
              contendMs: 400,
              patienceMs: 20_000,
              wait: true,
            });
          } catch (error) {
            // Only a refusal naming the holder counts: any other error fails the test.
            if (!(error instanceof UserError) || !error.message.includes("is being published by"))
              throw error;
            refusals.push(error.message);
            return;
          }
          const from = performance.now();
          await sleep(150);
          held.push({ from, to: performance.now() });
          await lease.release();
        }),
      );
      expect(held.length).toBeGreaterThan(0);
      expect(held.length + refusals.length).toBe(scopes.length);
      held.sort((x, y) => x.from - y.from);
      for (let i = 1; i < held.length; i++)
        expect(held[i]!.from, "two holders at once").toBeGreaterThanOrEqual(held[i - 1]!.to);
      expect([...(await store.list(LEASES_FOLDER)).keys()]).toEqual([]);
    });

    it("lets publishers of disjoint domains hold at once", async () => {
      const store = open();
      const [a, b] = await Promise.all([
        acquireLease(store, ["a.example"]),
        acquireLease(store, ["b.example"]),
      ]);
      expect((await store.list(LEASES_FOLDER)).size).toBe(2);
      await Promise.all([a.release(), b.release()]);
    });

    it("stops a second publisher at once, naming who holds the domains and since when", async () => {
      const store = open();
      await plantLease(store, ["b.example", "a.example"]);
      await sleep(300);
      const second = acquireLease(store, ["a.example"], { contendMs: 100 });
      await expect(second).rejects.toThrow(UserError);
      await expect(second).rejects.toThrow(/b\.example, a\.example|a\.example, b\.example/);
      await expect(second).rejects.toThrow(
        "is being published by ci-runner-7 pid 4242 since 2026-11-23T03:00:00.000Z; nothing was changed",
      );
      // Its own lease was withdrawn: only the holder's is left.
      expect([...(await store.list(LEASES_FOLDER)).keys()]).toEqual([
        `${LEASES_FOLDER}0-killed.json`,
      ]);
    });

    it("takes over the lease of a killed publisher once it was not renewed for its time-to-live", async () => {
      const store = open();
      await plantLease(store, ["*"]);
      // Fresh: refused. S3 dates objects to the second, so the time-to-live spans a few.
      await expect(
        acquireLease(store, ["a.example"], { ttlMs: 3000, contendMs: 100 }),
      ).rejects.toThrow("is being published by");
      await sleep(4500);
      const lease = await acquireLease(store, ["a.example"], { ttlMs: 3000, contendMs: 100 });
      const left = [...(await store.list(LEASES_FOLDER)).keys()];
      expect(left).toHaveLength(1);
      expect(left[0]).not.toContain("killed");
      await lease.release();
    });

    it("takes over at once a lease that this process left behind when its release failed", async () => {
      const store = open();
      // A release whose delete fails (a dropped connection): the lease stays in the store.
      const failing = failingStore(store, "remove");
      const first = await acquireLease(failing, ["a.example"]);
      await expect(first.release()).rejects.toThrow("injected");
      const [left] = [...(await store.list(LEASES_FOLDER)).keys()];
      await sleep(300);
      // Not a holder: this process's publish that wrote it has ended.
      const second = await acquireLease(store, ["a.example"], { contendMs: 100, patienceMs: 2000 });
      const now = [...(await store.list(LEASES_FOLDER)).keys()];
      expect(now).toHaveLength(1);
      expect(now[0]).not.toBe(left);
      // While it holds, the same process's next publish of the domain is refused, as another's would be.
      await sleep(300);
      await expect(
        acquireLease(store, ["a.example"], { contendMs: 100, patienceMs: 2000 }),
      ).rejects.toThrow(`is being published by`);
      await second.release();
      expect((await store.list(LEASES_FOLDER)).size).toBe(0);
    });

    it("leaves no lease behind when a request fails while it decides", async () => {
      const store = open();
      await expect(acquireLease(failingStore(store, "list"), ["a.example"])).rejects.toThrow(
        "injected",
      );
      expect((await store.list(LEASES_FOLDER)).size).toBe(0);
    });

    it("a holder whose lease was taken over knows it, and writes nothing more", async () => {
      const store = open();
      const lease = await acquireLease(store, ["a.example"], { ttlMs: 400 });
      // As a newcomer does with a stale lease: removed (again, should a renewal in flight have written it back).
      // The holder learns so at its next renewal (every ttl/4): on a loaded machine that may take longer.
      for (let waited = 0; !lease.lost && waited < 10_000; waited += 200) {
        await store.remove([...(await store.list(LEASES_FOLDER)).keys()]);
        await sleep(200);
      }
      expect(lease.lost).toBe(true);
      expect(() => lease.check()).toThrow("lease expired and was taken over");
      await lease.release();
    });
  });
}
