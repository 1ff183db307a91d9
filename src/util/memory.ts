import v8 from "node:v8";

/**
 * How far V8 lets its heap grow past what survived the last full collection before it collects
 * again, in percent, during a build.
 *
 * V8 sizes its heap for speed: by default it lets the heap grow to up to four times what survived
 * (it chooses the factor from how fast it collects), and the pages it frees are handed back lazily
 * (Linux counts them as resident until it needs them). A build makes garbage fast (every page is
 * text serialised, batched and written), so its resident memory was mostly garbage: a 20,000-work
 * site build peaked at 1.1 GB with under 230 MB live, a 20,000-work × 30-domain API build at
 * 730 MB with 280 MB live. Collecting when the heap has grown by half keeps the peak near one and
 * a half times the live heap, for a few percent more CPU (V8 marks concurrently, on the other
 * core). Measured with scripts/bench (the scale section): see the README, "Memory and the number
 * of domains".
 */
export const BUILD_HEAP_GROWING_PERCENT = 50;

/**
 * The growing factor of a large build (works × domains from LARGE_BUILD_WORKS on): there the
 * manifest alone holds hundreds of thousands of entries, so what survives is large and half of it
 * again is a hundred megabytes; collecting sooner keeps 20,000 works × 30 domains under 600 MB
 * (peak RSS 647 MB at 50 %, 583 to 604 MB at 30 %, 560 MB at 20 % for 8 % more time). Not for
 * smaller builds: at 20,000 × 3, 30 % cost 5 % of the time and saved no memory (290 MiB either
 * way). Measured on 2026-11-24 with /usr/bin/time -v (README, "Memory").
 */
export const LARGE_BUILD_HEAP_GROWING_PERCENT = 20;
export const LARGE_BUILD_WORKS = 250_000;

/**
 * The growing factor for a build of `works` works in `domains` domains, with or without the site;
 * 0 is V8's own choice. An API build below LARGE_BUILD_WORKS keeps V8's choice: its peak stays
 * under 400 MB either way (20,000 × 3: 290 MiB at 50 %, 300 to 330 MiB at V8's), and collecting
 * sooner cost a one-title rebuild 10 % of its CPU (medians of 3 alternated runs, 2026-11-24).
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
