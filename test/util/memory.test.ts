import { describe, expect, it } from "vitest";
import { BUILD_HEAP_GROWING_PERCENT, heapGrowingPercent, LARGE_BUILD_HEAP_GROWING_PERCENT } from "../../src/util/memory.ts";

describe("the heap growing factor of a build", () => {
  it("collects sooner only in builds whose works × domains reach hundreds of thousands", () => {
    expect(LARGE_BUILD_HEAP_GROWING_PERCENT).toBeLessThan(BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(20_000, 3)).toBe(BUILD_HEAP_GROWING_PERCENT); // 5 % slower for nothing there
    expect(heapGrowingPercent(100_000, 1)).toBe(BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(20_000, 30)).toBe(LARGE_BUILD_HEAP_GROWING_PERCENT);
    expect(heapGrowingPercent(5_000, 100)).toBe(LARGE_BUILD_HEAP_GROWING_PERCENT);
  });
});
