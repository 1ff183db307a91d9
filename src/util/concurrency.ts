/**
 * Maps over items with at most `limit` calls in flight; results keep the input order.
 *
 * After a failure no new call starts: the calls in flight finish, then the first failure is
 * thrown. So nothing keeps uploading, writing or reading behind a caller that has moved on.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  async function worker() {
    while (failure === null && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
  return results;
}

/**
 * Waits for every promise, then throws the first failure in their order: unlike Promise.all,
 * which rejects at the first failure while the others still run, nothing still writes behind a
 * caller that has moved on (a build that drops its output folder).
 */
export async function settleAll(promises: Iterable<unknown>): Promise<void> {
  for (const result of await Promise.allSettled(promises))
    if (result.status === "rejected") throw result.reason;
}
