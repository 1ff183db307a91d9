import v8 from "node:v8";

/**
 * How far V8 lets its heap grow past what survived the last full collection before it collects
 * again, in percent, during a build.
 *
 * V8 sizes its heap for speed: by default it lets the heap grow to up to four times what survived
 * (it chooses the factor from how fast it collects), and the pages it frees are handed back lazily
 * (Linux counts them as resident until it needs them). A build makes garbage fast (every page is
 * text serialised, batched and written), so left to V8 its resident memory is mostly garbage, a
 * peak several times the live heap. Collecting when the heap has grown by half keeps the peak near
 * one and a half times the live heap, for a little more CPU (V8 marks concurrently, on the
 * other core). The figures: docs/performance.md#memory-one-domain-at-a-time.
 */
export const BUILD_HEAP_GROWING_PERCENT = 50;

/**
 * The growing factor of a large build (works × domains from LARGE_BUILD_WORKS on): there the
 * manifest alone holds hundreds of thousands of entries, so what survives is large and half of it
 * again is a large share of the peak; collecting sooner keeps the peak down for a little more time.
 * Smaller builds would pay the time and save no memory: what survives there is small, so half of
 * it again is little. The figures: docs/performance.md#memory-one-domain-at-a-time.
 */
export const LARGE_BUILD_HEAP_GROWING_PERCENT = 20;
export const LARGE_BUILD_WORKS = 250_000;

/**
 * The growing factor for a build of `works` works in `domains` domains, with or without the site;
 * 0 is V8's own choice. An API build below LARGE_BUILD_WORKS keeps V8's choice: its garbage is
 * short-lived, so its peak stays low either way, and collecting sooner would cost a small rebuild
 * CPU for no memory saved (docs/performance.md#memory-one-domain-at-a-time).
 */
export function heapGrowingPercent(works: number, domains: number, site: boolean): number {
  if (works * domains >= LARGE_BUILD_WORKS) return LARGE_BUILD_HEAP_GROWING_PERCENT;
  return site ? BUILD_HEAP_GROWING_PERCENT : 0;
}

/**
 * Sets V8's heap growing factor for the build and returns what restores the default (V8 reads the
 * flag at each collection; the writer threads' heaps follow it too). Not taken from Node's command
 * line: a process started with V8 flags cannot start worker threads (ERR_WORKER_INVALID_EXEC_ARGV).
 */
export function limitHeapGrowth(percent = BUILD_HEAP_GROWING_PERCENT): () => void {
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  // 0 is V8's default: the factor chosen from the collector's speed.
  return () => v8.setFlagsFromString("--heap-growing-percent=0");
}

/**
 * Sets V8's heap growing factor for a build of `size` (the no-change check's, src/pipeline/up-to-date.ts),
 * with or without the site, and returns what restores V8's default. Called by the command that
 * builds (build, deploy, each build of dev), around the build: the pipeline itself makes no
 * process-wide setting.
 */
export function tuneHeap(size: { works: number; domains: number }, site: boolean): () => void {
  return limitHeapGrowth(heapGrowingPercent(size.works, size.domains, site));
}

/** Runs `work` with V8's heap tuned for a build of `size` (tuneHeap), restored after it however it ends. */
export async function withTunedHeap<T>(
  size: { works: number; domains: number },
  site: boolean,
  work: () => Promise<T>,
): Promise<T> {
  const restore = tuneHeap(size, site);
  try {
    return await work();
  } finally {
    restore();
  }
}
