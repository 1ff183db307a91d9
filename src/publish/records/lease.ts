import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { UserError } from "../../errors.ts";
import { isAlive } from "../../output/tree.ts";
import { md5 } from "../../util/hash.ts";
import type { Store } from "../targets/target.ts";
import { CATALOGUE_DIR } from "../../output/catalogue-paths.ts";

/**
 * Who may change which domains of a target. A publisher writes a lease object of its own,
 * `_catalogue/leases/<id>.json` naming its scope (domains, `*` for the whole target, or
 * `_catalogue/build.json` while it merges that file), then lists the leases. It holds the lease
 * when no other live lease overlaps its scope; otherwise it withdraws its own.
 *
 * Only unique names are written and lists are strongly consistent (S3 since 2020, a directory,
 * s3rver), so no conditional write is needed: two publishers that overlap cannot both list before
 * the other's lease is visible, so at most one finds itself alone. Two that see each other in
 * their first seconds both withdraw and retry after a random pause; a lease older than that is a
 * holder, and the newcomer stops with a message naming it. The holder rewrites its lease every
 * quarter of the time-to-live; a lease not rewritten for the time-to-live (a killed publisher) is
 * stale, deleted and taken over, and so at once is the lease of a process of this machine that is
 * gone (a publish killed and run again). Ages are measured by the store's own clock (each lease's last
 * write against the newcomer's), never by comparing two machines' clocks.
 */

export const LEASES_FOLDER = `${CATALOGUE_DIR}/leases/`;

export interface LeaseOptions {
  /** A lease not rewritten for this long is stale (default two minutes). */
  ttlMs?: number;
  /** Lease younger than this that overlaps is a contender still deciding, not a holder. */
  contendMs?: number;
  /** How long to keep trying while only contenders are in the way (or, with `wait`, holders). */
  patienceMs?: number;
  /** Wait for holders to finish instead of stopping (short leases: build.json's merge). */
  wait?: boolean;
}

interface LeaseBody {
  owner: string;
  host?: string;
  pid?: number;
  started: string;
  scope: string[];
}

export interface Lease {
  /** When the lease was first written, by the store's clock (ms): what other objects' times compare with. */
  readonly since: number;
  /** Set when a renewal found the lease gone or taken over: nothing more may be written. */
  readonly lost: boolean;
  /** Throws when the lease was lost. */
  check(): void;
  release(): Promise<void>;
}

/**
 * The leases this process has written and not withdrawn or released. A lease naming this process
 * that is not among them was left by an earlier publish of this process whose release failed (a
 * dropped connection): it is taken over at once, as a dead process's is, instead of keeping the
 * process's next lease (the same run's `--prune-media`, the tests' next publish) waiting for the
 * time-to-live.
 */
const ours = new Set<string>();

const overlaps = (a: string[], b: string[]) =>
  a.includes("*") || b.includes("*") || a.some((x) => b.includes(x));

export async function acquireLease(
  store: Store,
  scope: string[],
  options: LeaseOptions = {},
): Promise<Lease> {
  const ttl = options.ttlMs ?? 120_000;
  const contendMs = options.contendMs ?? 10_000;
  const deadline = Date.now() + (options.patienceMs ?? 30_000);
  const body: LeaseBody = {
    owner: `${hostname()} pid ${process.pid}`,
    host: hostname(),
    pid: process.pid,
    started: new Date().toISOString(),
    scope: [...scope].sort(),
  };
  const rel = `${LEASES_FOLDER}${Date.now().toString(36)}-${randomBytes(6).toString("hex")}.json`;
  const bytes = Buffer.from(JSON.stringify(body) + "\n");
  const write = () =>
    store.put({
      path: rel,
      size: bytes.length,
      md5: md5(bytes),
      abs: null,
      bytes,
      contentType: "application/json",
      cacheControl: "no-store",
    });

  ours.add(rel);
  try {
    return await contend();
  } catch (error) {
    // Whatever failed after the lease was written (a list, a read), it must not stay behind.
    if (ours.delete(rel)) await store.remove([rel]).catch(() => {});
    throw error;
  }

  async function contend(): Promise<Lease> {
    for (let attempt = 0; ; attempt++) {
      await write();
      const listing = await store.list(LEASES_FOLDER);
      const mine = listing.get(rel);
      if (mine === undefined)
        throw new Error(`bug: ${store.name} does not list the lease ${rel} just written`);
      const blocking: { body: LeaseBody; age: number }[] = [];
      let tookOver = false;
      for (const [other, listed] of listing) {
        if (other === rel) continue;
        const age = mine.modified - listed.modified;
        const text = await store.get(other);
        if (text === null) continue; // released meanwhile
        let theirs: LeaseBody;
        try {
          theirs = JSON.parse(text.toString()) as LeaseBody;
        } catch {
          theirs = {
            owner: "unknown",
            started: new Date(listed.modified).toISOString(),
            scope: ["*"],
          };
        }
        if (!overlaps(body.scope, theirs.scope ?? ["*"])) continue;
        const dead =
          theirs.host === hostname() &&
          typeof theirs.pid === "number" &&
          (theirs.pid === process.pid ? !ours.has(other) : !isAlive(theirs.pid));
        if (age > ttl || dead) {
          // Its publisher stopped rewriting it, or is a process of this machine that is gone: killed.
          // Taken over (other newcomers may delete it too).
          await store.remove([other]);
          tookOver = true;
          continue;
        }
        blocking.push({ body: theirs, age });
      }
      // After a takeover, look once more: a holder that was only slow (its renewal in flight while
      // its lease was deleted) has written it again, and is then seen as a contender.
      if (blocking.length === 0 && tookOver) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      if (blocking.length === 0) return hold(store, rel, write, ttl, mine.modified);
      await store.remove([rel]);
      const holder = blocking.find((b) => b.age > contendMs);
      if ((holder !== undefined && !options.wait) || Date.now() > deadline) {
        const b = holder ?? blocking[0]!;
        ours.delete(rel); // withdrawn just above
        throw new UserError(
          `${store.name}: ${b.body.scope.join(", ")} is being published by ${b.body.owner} since ${b.body.started}; ` +
            `nothing was changed. Run again when it is done (a lease left by a killed publisher expires ${Math.round(ttl / 1000)} s after its last renewal)`,
        );
      }
      // Contenders that saw each other both withdrew: try again after a random pause, out of step.
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(200 * 2 ** attempt, 2000) * (0.5 + Math.random())),
      );
    }
  }
}

function hold(
  store: Store,
  rel: string,
  write: () => Promise<unknown>,
  ttl: number,
  since: number,
): Lease {
  let lost = false;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = (async () => {
      // Still ours? A lease that vanished was taken over as stale: stop writing.
      const listing = await store.list(LEASES_FOLDER).catch(() => null);
      if (listing !== null && !listing.has(rel)) lost = true;
      else await write().catch(() => {});
    })();
  }, ttl / 4);
  timer.unref();
  return {
    since,
    get lost() {
      return lost;
    },
    check() {
      if (lost)
        throw new UserError(
          `${store.name}: this publisher's lease expired and was taken over by another publisher; run again`,
        );
    },
    async release() {
      clearInterval(timer);
      await renewing;
      ours.delete(rel);
      await store.remove([rel]);
    },
  };
}
