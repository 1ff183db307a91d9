import type { ChildProcess } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers/catalogue.ts";
import { cli } from "../reliability/helpers.ts";
import { startDev } from "./start.ts";

/**
 * `catalogue dev` started in a project without a site folder: the library makes `site/` while dev
 * runs (its first own page), and dev watches it from then on and builds it, without a restart.
 */

let cleanup: () => Promise<void>;
let project: string;
let dev: ChildProcess;
let stderr: () => string;
let url: string;

beforeAll(async () => {
  ({ dir: project, cleanup } = await tempDir("catalogue-dev-site-"));
  const init = await cli(["init"], { cwd: project });
  expect(init.code, init.stderr).toBe(0);
  await rm(path.join(project, "site"), { recursive: true });
  const started = await startDev(CLI, project);
  dev = started.process;
  url = started.url;
  stderr = started.stderr;
}, 180_000);
afterAll(async () => {
  if (dev?.exitCode === null) dev.kill("SIGKILL");
  await cleanup?.();
}, 60_000);

it("watches and builds a site folder made while it runs", { timeout: 120_000 }, async () => {
  const page = async () => {
    const response = await fetch(new URL("hours/", url));
    return response.status === 200 ? await response.text() : `${response.status}`;
  };
  expect(await page()).toBe("404");
  await mkdir(path.join(project, "site/pages"), { recursive: true });
  await writeFile(
    path.join(project, "site/pages/hours.md"),
    "---\ntitle: Horari\n---\nDe dilluns a divendres.\n",
  );
  await expect.poll(page, { timeout: 60_000, interval: 300 }).toContain("<h1>Horari</h1>");
  expect(stderr()).toContain(`watching ${path.join("site")}`);
  // Watched from then on: a save in it rebuilds again.
  await writeFile(
    path.join(project, "site/pages/hours.md"),
    "---\ntitle: Horari d'obertura\n---\nDe dilluns a divendres.\n",
  );
  await expect
    .poll(page, { timeout: 60_000, interval: 300 })
    .toContain("<h1>Horari d&#39;obertura</h1>");
});
