/**
 * Retries an action with exponential backoff when the failure is transient (a 5xx, a dropped
 * connection), never when it is the caller's fault (a 4xx: retrying cannot help).
 */
export interface RetryPolicy {
  attempts: number;
  /** Delay before the second attempt; doubled each time, with jitter so workers do not retry in step. */
  baseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseMs: 250 };

export async function withRetry<T>(
  action: () => Promise<T>,
  transient: (error: unknown) => boolean,
  policy: RetryPolicy = DEFAULT_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await action();
    } catch (error) {
      if (attempt >= policy.attempts || !transient(error)) throw error;
      const delay = policy.baseMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
