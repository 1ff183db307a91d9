import { describe, expect, it } from "vitest";
import {
  BUILD_HEAP_GROWING_PERCENT,
  heapGrowingPercent,
  LARGE_BUILD_HEAP_GROWING_PERCENT,
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
