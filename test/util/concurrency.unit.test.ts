import { describe, expect, it } from "vitest";
import { mapLimit } from "../../src/util/concurrency.ts";

/** A promise settled from outside, to order the calls by hand. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("mapLimit", () => {
  it("keeps at most `limit` calls in flight and returns the results in input order", async () => {
    let inFlight = 0;
    let most = 0;
    const items = Array.from({ length: 20 }, (_, i) => i);
    const results = await mapLimit(items, 3, async (item, index) => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Later items finish first: the order of the results is not the order of completion.
      await new Promise((resolve) => setTimeout(resolve, (20 - item) % 4));
      inFlight--;
      return `${item}:${index}`;
    });
    expect(most).toBe(3);
    expect(results).toEqual(items.map((i) => `${i}:${i}`));
  });

  it("returns an empty array for no items and never calls fn", async () => {
    let calls = 0;
    expect(await mapLimit([], 4, () => Promise.resolve(calls++))).toEqual([]);
    expect(calls).toBe(0);
  });

  it("starts no new call after a failure and lets the calls in flight finish first", async () => {
    const gates = Array.from({ length: 6 }, () => deferred());
    const started: number[] = [];
    const finished: number[] = [];
    let settled = false;
    const run = mapLimit([0, 1, 2, 3, 4, 5], 3, async (item) => {
      started.push(item);
      await gates[item]!.promise;
      finished.push(item);
    }).then(
      () => {
        settled = true;
        return null;
      },
      (error: unknown) => {
        settled = true;
        return error;
      },
    );
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.reject(new Error("item 1"));
    await tick();
    // Nothing new started, and the caller is still waiting for items 0 and 2.
    expect(started).toEqual([0, 1, 2]);
    expect(settled).toBe(false);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    expect(settled).toBe(false);
    gates[2]!.resolve();
    const error = await run;
    expect(finished).toEqual([0, 2]);
    expect(started).toEqual([0, 1, 2]);
    expect((error as Error).message).toBe("item 1");
  });

  it("throws the first failure when several calls fail", async () => {
    const gates = Array.from({ length: 2 }, () => deferred());
    const run = mapLimit([0, 1], 2, async (item) => {
      await gates[item]!.promise;
    });
    const outcome = run.catch((error: unknown) => error);
    await tick();
    gates[1]!.reject(new Error("first"));
    await tick();
    gates[0]!.reject(new Error("second"));
    expect(((await outcome) as Error).message).toBe("first");
  });
});
