import v8 from "node:v8";
import { describe, expect, it, vi } from "vitest";
import {
  BUILD_HEAP_GROWING_PERCENT,
  heapGrowingPercent,
  LARGE_BUILD_HEAP_GROWING_PERCENT,
  tuneHeap,
  withTunedHeap,
} from "../../src/util/memory.ts";

describe("the heap growing factor of a build", () => {
  it("collects sooner in site builds, and sooner still in builds whose works × domains reach hundreds of thousands", () => {
    expect(LARGE_BUILD_HEAP_GROWING_PERCENT).toBeLessThan(BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(20_000, 3, true)).toBe(BUILD_HEAP_GROWING_PERCENT); // 1.1 GB at V8's choice
    expect(heapGrowingPercent(100_000, 1, true)).toBe(BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(20_000, 3, false)).toBe(0); // V8's own: sooner only costs time there
    expect(heapGrowingPercent(20_000, 30, false)).toBe(LARGE_BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(5_000, 100, false)).toBe(LARGE_BUILD_HEAP_GROWING_PERCENT);
  });
});

describe("tuneHeap", () => {
  it("sets the factor heapGrowingPercent picks for the size and the site, and restores V8's default", () => {
    const flags = vi.spyOn(v8, "setFlagsFromString");
    try {
      tuneHeap({ works: 300, domains: 2 }, false)();
      tuneHeap({ works: 300, domains: 2 }, true)();
      tuneHeap({ works: 5_000, domains: 100 }, false)();
      expect(flags.mock.calls.map(([flag]) => flag)).toEqual([
        "--heap-growing-percent=0",
        "--heap-growing-percent=0",
        `--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`,
        "--heap-growing-percent=0",
        `--heap-growing-percent=${LARGE_BUILD_HEAP_GROWING_PERCENT}`,
        "--heap-growing-percent=0",
      ]);
    } finally {
      flags.mockRestore();
    }
  });

  it("restores V8's default after the work, when the work throws too", async () => {
    const flags = vi.spyOn(v8, "setFlagsFromString");
    try {
      const size = { works: 20_000, domains: 3 };
      expect(await withTunedHeap(size, true, () => Promise.resolve(7))).toBe(7);
      await expect(
        withTunedHeap(size, true, () => Promise.reject(new Error("failed build"))),
      ).rejects.toThrow("failed build");
      const tuned = `--heap-growing-percent=${BUILD_HEAP_GROWING_PERCENT}`;
      const reset = "--heap-growing-percent=0";
      expect(flags.mock.calls.map(([flag]) => flag)).toEqual([tuned, reset, tuned, reset]);
    } finally {
      flags.mockRestore();
    }
  });
});
