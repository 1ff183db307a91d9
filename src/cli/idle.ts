/**
 * Runs `task` once, at the first moment the event loop has been mostly idle for a short window
 * (busy less than a fifth of `windowMs`): while a build waits on its worker threads, say. Returns
 * a function that cancels it if it has not run yet.
 *
 * For work the caller needs later anyway on this thread (loading a module): run while the thread
 * idles, it costs nothing; misjudged, it delays what was running by what it would have cost after.
 */
export function whenIdle(task: () => unknown, windowMs = 50): () => void {
  let last = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    // A window the thread spent running code delays this callback and counts as busy.
    if (performance.eventLoopUtilization(now, last).utilization < 0.2) {
      clearInterval(timer);
      void task();
    }
    last = now;
  }, windowMs);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
