import { existsSync } from "node:fs";
import path from "node:path";
import { build, type BuildOptions, type BuildSummary } from "../pipeline/pipeline.ts";
import { checkUpToDate } from "../pipeline/up-to-date.ts";
import { withTunedHeap } from "../util/memory.ts";
import { formatWarning } from "../errors.ts";
import { InputError, UserError } from "../errors.ts";
import { startServer, type RunningServer } from "../serve/server.ts";
import { startPreviewProxy, type PreviewProxy } from "./preview.ts";
import { ReloadChannel } from "./reload.ts";
import { watchFolder } from "./watch.ts";
import { siteFolderPath } from "../pipeline/site-folder.ts";
import { setKeepWarm } from "../util/warm.ts";

export interface DevOptions {
  build: Omit<BuildOptions, "reporter">;
  port: number;
  host: string;
  /** What dev tells: each build, each failure (with its problems), the server's address. */
  say: (line: string) => void;
  /** Also tells, after each build, when each of its stages started (`timings: …`). */
  timings?: boolean;
}

export interface RunningDev {
  url: string;
  /** Stops watching, lets a running build finish, closes the pages' channels and the server. */
  close(): Promise<void>;
}

/**
 * `catalogue dev`: builds, serves the output as `catalogue serve` does, and rebuilds on every save
 * in the content folder (one rebuild per burst of saves; the build itself only rewrites what
 * changed). Open pages reload after each build. A save that makes the content invalid leaves the
 * last good build served, and its problems are printed and shown over the open pages until a
 * save builds again.
 */
export async function startDev(options: DevOptions): Promise<RunningDev> {
  const { say } = options;
  // Every rebuild reuses what the previous one loaded (image headers and cache records).
  setKeepWarm(true);
  let count = 0;
  const buildId = () => `${process.pid}-${count}`;
  const attempt = async (): Promise<string[] | null> => {
    const started = performance.now();
    const stages: string[] = [];
    const stage = (name: string) =>
      stages.push(`${((performance.now() - started) / 1000).toFixed(2)} ${name}`);
    try {
      // The heap is tuned for each build from its size, as the build command does.
      const checked = await checkUpToDate(options.build);
      const run = () =>
        build({
          ...options.build,
          checked,
          reporter: { stage, warning: (w) => say(formatWarning(w)) },
        });
      const summary =
        checked.current === null
          ? await withTunedHeap(checked.size, options.build.site ?? true, run)
          : await run();
      count++;
      stage("done");
      if (options.timings) say(`timings: ${stages.join(" | ")}`);
      say(describe(summary, (performance.now() - started) / 1000));
      return null;
    } catch (error) {
      if (error instanceof InputError) {
        say(
          `${error.message}\n${error.problems.length} problem(s) found; still serving the last good build`,
        );
        return error.message.split("\n");
      }
      // A bug, or a problem that is not in a CSV (a folder that cannot be written): shown the same way, dev keeps running.
      const message =
        error instanceof UserError ? error.message : ((error as Error).stack ?? String(error));
      say(`build failed: ${message}`);
      return [message];
    }
  };

  const first = await attempt();
  if (first !== null && !existsSync(path.join(options.build.outDir, "_catalogue"))) {
    throw new UserError(
      `nothing to serve: the content does not build (see above) and ${options.build.outDir} holds no earlier build`,
    );
  }
  const channel = new ReloadChannel({ build: buildId(), problems: first });
  let server: RunningServer | undefined;
  let proxy: PreviewProxy;
  try {
    // The server of `catalogue serve` on a loopback port of its own, behind the proxy that keeps links on the preview.
    server = await startServer({
      dir: options.build.outDir,
      port: 0,
      host: "127.0.0.1",
      dev: channel,
    });
    proxy = await startPreviewProxy({
      dir: options.build.outDir,
      host: options.host,
      port: options.port,
      upstream: server.url,
    });
  } catch (error) {
    channel.close();
    await server?.close();
    throw error;
  }
  const running = server;
  for (const { domain, url } of proxy.urls().domains) say(`${domain}: ${url}`);
  const rebuild = async (changed: string[]) => {
    say(
      `changed: ${changed.slice(0, 5).join(", ")}${changed.length > 5 ? ` and ${changed.length - 5} more` : ""}; rebuilding`,
    );
    const problems = await attempt();
    // The new build is loaded now: the reloading pages do not wait for it, nor get the previous one.
    await running.refresh().catch(() => {});
    await proxy.refresh();
    channel.update({ build: buildId(), problems });
  };
  // The content folder and the library's site folder (where there is one): a save in either rebuilds.
  const siteDir = siteFolderPath(options.build.contentDir, options.build.siteDir);
  const folders = [
    options.build.contentDir,
    ...(options.build.site !== false && existsSync(siteDir) ? [siteDir] : []),
  ];
  // One build at a time, whichever folder a save is in.
  let building: Promise<void> = Promise.resolve();
  const serial = (changed: string[]) => (building = building.then(() => rebuild(changed)));
  const watch = (folder: string) =>
    watchFolder(folder, (changed) => serial(changed.map((rel) => path.join(folder, rel))), {
      onError: (error) =>
        say(`stopped watching ${folder}: ${error.message}; restart dev to watch again`),
    });
  const watchers = folders.map(watch);
  // A site folder made while dev runs (the library starts its own look): watched, and built, from then on.
  const waitingForSite =
    options.build.site !== false && !folders.includes(siteDir)
      ? setInterval(() => {
          if (!existsSync(siteDir)) return;
          clearInterval(waitingForSite);
          say(`watching ${siteDir}`);
          watchers.push(watch(siteDir));
          void serial([siteDir]);
        }, SITE_POLL_MS)
      : undefined;
  waitingForSite?.unref();
  const watcher = {
    close: () => {
      clearInterval(waitingForSite);
      return Promise.all(watchers.map((w) => w.close()));
    },
  };
  return {
    url: proxy.url,
    async close() {
      await watcher.close();
      channel.close();
      await proxy.close();
      await running.close();
    },
  };
}

/** How often dev looks for a site folder that did not exist when it started. */
const SITE_POLL_MS = 1000;

function describe(summary: BuildSummary, seconds: number): string {
  if (summary.skipped) return `built: nothing changed (${seconds.toFixed(2)} s)`;
  return `built ${summary.domains.length} domain(s) in ${seconds.toFixed(2)} s: ${summary.written} files written, ${summary.unchanged} unchanged, ${summary.removed} removed`;
}
