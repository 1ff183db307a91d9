/**
 * `catalogue dev` as a maintainer uses it: the compiled command (bin/catalogue.js) on a copy of the
 * sample catalogue (content/ of this repository), a page open in Debian's Chromium, and a title
 * edited in audiovisuals.csv; timed from the save to the reloaded page showing the new title.
 *
 *   TMPDIR=/dev/shm npx tsx scripts/bench-dev.ts [--edits 7] [--keep]
 *
 * Each edit renames the first work (alternating names, so that every edit changes the same
 * pages), waits until the open page shows the new name, then lets dev settle. Prints one line per
 * edit and the medians, split with dev's `--timings` lines:
 * - detect: the save to dev's "rebuilding" line (the file system's event and the watcher's quiet time);
 * - build: "rebuilding" to "built" (the build's own stages, from `--timings`, are printed beside it);
 * - reload: "built" to the first paint of the reloaded page showing the new title (the reload
 *   event, the page's load and paint; the page's own clock, performance.timeOrigin and its
 *   first-contentful-paint entry). The time at which the driver (Playwright's polling) saw the
 *   title is printed beside it: it adds the driver's own delay after a navigation.
 */
import { spawn } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { launchChromium } from "../test/helpers/chromium.ts";
import { devUrl } from "../test/dev/start.ts";
import { reportRows } from "./bench/rows.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: { edits: { type: "string", default: "7" }, keep: { type: "boolean", default: false } },
});
const edits = Number(values.edits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

await new Promise<void>((resolve, reject) =>
  spawn(process.execPath, [path.join(ROOT, "scripts/compile.mjs")], { stdio: "inherit" }).on(
    "exit",
    (code) => (code === 0 ? resolve() : reject(new Error(`compile: exit ${code}`))),
  ),
);
const dir = await mkdtemp(path.join(tmpdir(), "catalogue-bench-dev-"));
await cp(path.join(ROOT, "content"), path.join(dir, "content"), { recursive: true });
const csv = path.join(dir, "content/audiovisuals.csv");
const original = await readFile(csv, "utf8");
// The first work: id, title, slug (its page's address does not change with its title).
const first = /\n(\d+),([^,\n]+),([^,\n]+),/.exec(original)!;
const rename = (name: string) => original.replace(first[0], `\n${first[1]},${name},${first[3]},`);

/** dev's stderr lines, each with the time it arrived. */
const lines: { at: number; text: string }[] = [];
const dev = spawn(
  process.execPath,
  [path.join(ROOT, "bin/catalogue.js"), "dev", "--port", "0", "--timings"],
  { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
);
let pending = "";
dev.stderr.on("data", (chunk: Buffer) => {
  const at = performance.now();
  pending += chunk.toString("utf8");
  const complete = pending.split("\n");
  pending = complete.pop()!;
  for (const text of complete) lines.push({ at, text });
});
const browser = await launchChromium();
try {
  const started = performance.now();
  const url = await devUrl(dev, () => lines.map((l) => l.text).join("\n"));
  console.error(`dev serving after ${seconds(performance.now() - started)} (first build)`);
  // The pages forbid evaluating strings (their Content-Security-Policy); the bench polls them by evaluating one.
  const page = await browser.newPage({ bypassCSP: true });
  // Its page in the first domain (the one served at the root).
  await page.goto(`${url}audiovisual-detail/${first[1]}/${first[3]}/`);
  if (!(await page.locator("body").innerText()).includes(first[2]!))
    throw new Error(`the page at ${page.url()} does not show ${first[2]}`);

  const results: {
    total: number;
    seen: number;
    detect: number;
    build: number;
    reload: number;
    stages: string;
  }[] = [];
  for (let i = 1; i <= edits; i++) {
    const name = `${first[2]} (edición ${i})`;
    const from = lines.length;
    const saved = performance.now();
    const savedEpoch = Date.now();
    await writeFile(csv, rename(name));
    await page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(name)})`, null, {
      timeout: 60_000,
      polling: 10,
    });
    const seen = performance.now();
    // When the reloaded page was first painted, by the page's clock (the same machine's).
    const painted = await page.evaluate<number>(`(() => {
      const paint = performance.getEntriesByName("first-contentful-paint")[0];
      const navigation = performance.getEntriesByType("navigation")[0];
      return performance.timeOrigin + (paint?.startTime ?? navigation?.domContentLoadedEventEnd ?? performance.now());
    })()`);
    const visible = saved + (painted - savedEpoch);
    // The lines of this rebuild: "rebuilding", the timings, "built".
    const line = async (pattern: RegExp) => {
      for (let waited = 0; waited < 5000; waited += 20) {
        const found = lines.slice(from).find((l) => pattern.test(l.text));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(
        `dev printed no line matching ${pattern}: ${lines
          .slice(from)
          .map((l) => l.text)
          .join("\n")}`,
      );
    };
    const rebuilding = await line(/; rebuilding$/);
    const built = await line(/^built /);
    const stages = (await line(/^timings: /)).text.slice("timings: ".length);
    const result = {
      total: visible - saved,
      seen: seen - saved,
      detect: rebuilding.at - saved,
      build: built.at - rebuilding.at,
      reload: visible - built.at,
      stages,
    };
    results.push(result);
    console.error(
      `edit ${i}: ${seconds(result.total)} (detect ${seconds(result.detect)}, build ${seconds(result.build)}, reload ${seconds(result.reload)}; the driver saw it at ${seconds(result.seen)}); ${stages}`,
    );
    // dev settles (the page's channel reconnects) before the next save.
    await new Promise((r) => setTimeout(r, 500));
  }
  const mid = (key: "total" | "seen" | "detect" | "build" | "reload") =>
    median(results.map((r) => r[key]));
  const split = `detect ${seconds(mid("detect"))}, build ${seconds(mid("build"))}, reload ${seconds(mid("reload"))}; the driver saw it at ${seconds(mid("seen"))}`;
  console.log(
    JSON.stringify({
      edits,
      seconds: mid("total") / 1000,
      seen: mid("seen") / 1000,
      detect: mid("detect") / 1000,
      build: mid("build") / 1000,
      reload: mid("reload") / 1000,
    }),
  );
  await reportRows([
    {
      measure: `catalogue dev: a title edited in the sample catalogue, painted in the open page (median of ${edits})`,
      ours: `${seconds(mid("total"))} (${split})`,
      target: "<= 2 s",
    },
  ]);
} finally {
  await browser.close();
  if (dev.exitCode === null) {
    const exited = new Promise((resolve) => dev.once("exit", resolve));
    dev.kill("SIGINT");
    await exited;
  }
  if (!values.keep) await rm(dir, { recursive: true, force: true });
  else console.error(`kept ${dir}`);
}
