import { watch, type FSWatcher } from "node:fs";

/**
 * An editor's save is a few events within milliseconds; every millisecond waited here is one more
 * before the page shows the edit.
 */
export const QUIET_MS = 50;

/**
 * Calls `rebuild` after changes in `dir`, once per burst: it waits until `quietMs` pass without a
 * change (an editor's save is often several events: a temporary file, a rename, a chmod), and a
 * change during a rebuild makes one more rebuild after it, never two at once.
 */
export function watchFolder(
  dir: string,
  rebuild: (changed: string[]) => Promise<void>,
  { quietMs = QUIET_MS, onError = () => {} }: { quietMs?: number; onError?: (error: Error) => void } = {},
): { close(): Promise<void> } {
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;

  const start = () => {
    timer = null;
    if (running !== null || closed) return; // the running rebuild starts the next one when it ends
    const files = [...changed].sort();
    changed = new Set();
    running = rebuild(files).finally(() => {
      running = null;
      if (changed.size > 0 && timer === null) start();
    });
  };
  // Recursive: covers and photos live in subfolders of the content folder.
  const watcher: FSWatcher = watch(dir, { recursive: true }, (_event, name) => {
    changed.add(name === null ? "." : String(name));
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(start, quietMs);
  });
  // The folder removed, or the system's limit of watches reached: said, rather than a crash of dev.
  watcher.on("error", onError);
  return {
    async close() {
      closed = true;
      watcher.close();
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}
