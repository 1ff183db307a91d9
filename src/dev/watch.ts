import { readdirSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";

/**
 * An editor's save is a few events within milliseconds; every millisecond waited here is one more
 * before the page shows the edit.
 */
const QUIET_MS = 50;

/**
 * Calls `rebuild` after changes in `dir`, once per burst: it waits until `quietMs` pass without a
 * change (an editor's save is often several events: a temporary file, a rename, a chmod), and a
 * change during a rebuild makes one more rebuild after it, never two at once.
 *
 * Every folder is watched on its own, not the files: a folder's watch reports what happens to the
 * names in it, whatever the inode behind a name. Node's recursive watch on Linux watches the files
 * themselves, and once an editor saved by writing a new file and renaming it over the old one
 * (sed -i, vim, gedit, LibreOffice), it kept watching the replaced inode and missed every later
 * save of that file. Folders created later are watched as they appear, removed ones let go.
 */
export function watchFolder(
  dir: string,
  rebuild: (changed: string[]) => Promise<void>,
  {
    quietMs = QUIET_MS,
    onError = () => {},
  }: { quietMs?: number; onError?: (error: Error) => void } = {},
): { close(): Promise<void> } {
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let closed = false;
  const watchers = new Map<string, FSWatcher>();

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
  const changedAt = (rel: string) => {
    changed.add(rel);
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(start, quietMs);
  };

  /** Watches `rel` (a folder under dir, "" for dir itself) and every folder under it not yet watched. */
  const watchTree = (rel: string) => {
    if (closed || watchers.has(rel)) return;
    const abs = path.join(dir, rel);
    let watcher: FSWatcher;
    try {
      watcher = watch(abs, (_event, name) => {
        const child = name === null ? rel : path.join(rel, String(name));
        changedAt(child === "" ? "." : child);
        // A new folder (or one renamed in) is watched with what it holds; a removed one is let go.
        if (name !== null) refresh(child);
      });
    } catch (error) {
      // The folder went between being listed and watched: nothing in it to watch.
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && rel !== "") return;
      throw error;
    }
    // The folder removed, or the system's limit of watches reached: said, rather than a crash of dev.
    watcher.on("error", (error) => {
      if (rel === "") onError(error);
      else forget(rel);
    });
    watchers.set(rel, watcher);
    for (const entry of list(abs)) if (entry.isDirectory()) watchTree(path.join(rel, entry.name));
  };
  const refresh = (rel: string) => {
    const isDir = list(path.join(dir, path.dirname(rel))).some(
      (e) => e.name === path.basename(rel) && e.isDirectory(),
    );
    if (isDir) watchTree(rel);
    else forget(rel);
  };
  const forget = (rel: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched === rel || watched.startsWith(rel + path.sep)) {
        watcher.close();
        watchers.delete(watched);
      }
    }
  };

  watchTree("");
  return {
    async close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      if (timer !== null) clearTimeout(timer);
      await running;
    },
  };
}

function list(abs: string) {
  try {
    return readdirSync(abs, { withFileTypes: true });
  } catch {
    return [];
  }
}
