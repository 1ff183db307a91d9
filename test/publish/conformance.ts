import { MANIFEST_PATH } from "../../src/output/tree.ts";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, it } from "vitest";
import { UserError } from "../../src/errors.ts";
import type { FileHeaders } from "../../src/publish/targets/file-headers.ts";
import { publish, type PublishSummary } from "../../src/publish/publish.ts";
import { readSource } from "../../src/publish/source.ts";
import type { Target } from "../../src/publish/targets/target.ts";
import { readFiles, type Editions } from "./fixtures.ts";

/**
 * One suite for every publishing target (as unstorage's testDriver runs over every driver): each
 * case publishes real builds and then reads back what the target holds through the driver.
 */
export interface Driver {
  /** Whether the target compares with what it holds (S3, directory) or is rewritten whole (archives). */
  incremental: boolean;
  /** A target object for the place of the current case; each call gives a fresh one at the same place. */
  open(): Promise<Target>;
  /** A new, empty place for the next case. */
  next(): Promise<void>;
  /** What the place holds (records and leases aside), with headers where the target stores them. */
  contents(): Promise<Map<string, { bytes: Buffer; headers?: FileHeaders }>>;
}

/** A target that fails like a dropped connection after `n` successful uploads of the build's files. */
export function failingAfter<T extends Target>(target: T, n: number): T & { puts: number } {
  let calls = 0;
  let puts = 0;
  return new Proxy(target, {
    get(object, property) {
      if (property === "puts") return puts;
      if (property === "put") {
        return async (file: { path: string }) => {
          // Records and leases are the publisher's bookkeeping, not the build's files.
          const bookkeeping =
            file.path.startsWith("_catalogue/records/") ||
            file.path.startsWith("_catalogue/leases/");
          if (!bookkeeping && ++calls > n) throw new Error("injected failure: connection lost");
          const result = await (object.put as (f: unknown) => Promise<unknown>).call(object, file);
          if (!bookkeeping) puts++;
          return result;
        };
      }
      const value = Reflect.get(object, property, object) as unknown;
      return typeof value === "function" ? value.bind(object) : value;
    },
  }) as T & { puts: number };
}

/** Asserts that `contents` is exactly the build `out`: same paths, same bytes, the planned headers. */
export async function expectHolds(driver: Driver, out: string) {
  const source = await readSource(out);
  await source.release();
  const held = await driver.contents();
  expect([...held.keys()].sort()).toEqual(source.files.map((f) => f.path));
  for (const file of source.files) {
    const entry = held.get(file.path)!;
    expect(entry.bytes.equals(await readFile(file.abs!)), file.path).toBe(true);
    if (entry.headers !== undefined) {
      const expected: FileHeaders = {
        contentType: file.contentType,
        cacheControl: file.cacheControl,
      };
      if (file.contentDisposition !== undefined)
        expected.contentDisposition = file.contentDisposition;
      expect(entry.headers, file.path).toEqual(expected);
    }
  }
}

export function targetConformance(getDriver: () => Driver, getEditions: () => Editions) {
  const run = async (
    out: string,
    options: { maxDeletes?: number; dryRun?: boolean; target?: Target } = {},
  ): Promise<PublishSummary> =>
    publish({
      dir: out,
      target: options.target ?? (await getDriver().open()),
      maxDeletes: options.maxDeletes,
      dryRun: options.dryRun,
    });
  const count = async (out: string) => {
    const source = await readSource(out);
    await source.release();
    return source.files.length;
  };

  it("stores every file of the build, byte for byte, with its headers, build.json included", async () => {
    const { before } = getEditions();
    await getDriver().next();
    const summary = await run(before);
    expect(summary.uploaded).toBe(await count(before));
    expect(summary.plan.uploads.every((u) => u.reason === "new")).toBe(true);
    await expectHolds(getDriver(), before);
    // build.json is published (the edge function reads it); the build's own file list is not.
    const held = await getDriver().contents();
    expect(held.get("_catalogue/build.json")?.bytes.toString()).toBe(
      await readFile(path.join(before, "_catalogue/build.json"), "utf8"),
    );
    expect(held.has(MANIFEST_PATH)).toBe(false);
  });

  it("a second publish of the same build changes nothing", async () => {
    const { before } = getEditions();
    const driver = getDriver();
    await driver.next();
    await run(before);
    const first = await driver.contents();
    const again = await run(before);
    if (driver.incremental) {
      expect(again.uploaded).toBe(0);
      expect(again.skipped).toBe(await count(before));
      expect(again.deleted).toBe(0);
    }
    const second = await driver.contents();
    expect([...second.keys()]).toEqual([...first.keys()]);
    for (const [rel, entry] of second)
      expect(entry.bytes.equals(first.get(rel)!.bytes), rel).toBe(true);
  });

  it("after an edit uploads only the changed files and deletes the removed ones", async () => {
    const { before, after, changed, removed } = getEditions();
    const driver = getDriver();
    await driver.next();
    await run(before);
    const summary = await run(after);
    if (driver.incremental) {
      expect(summary.plan.uploads.map((u) => u.file.path).sort()).toEqual(changed);
      expect(summary.plan.deletes).toEqual(removed);
      expect(summary.deleted).toBe(removed.length);
      expect(removed.length).toBeGreaterThan(0);
    }
    await expectHolds(driver, after);
  });

  it("a dry run lists the plan and changes nothing", async () => {
    const { before, after, changed, removed } = getEditions();
    const driver = getDriver();
    await driver.next();
    await run(before);
    const summary = await run(after, { dryRun: true });
    expect(summary.dryRun).toBe(true);
    expect(summary.uploaded).toBe(0);
    if (driver.incremental) {
      expect(summary.plan.uploads.map((u) => u.file.path).sort()).toEqual(changed);
      const old = await readFiles(before);
      for (const u of summary.plan.uploads)
        expect(u.reason, u.file.path).toBe(old[u.file.path] === undefined ? "new" : "changed");
      expect(summary.plan.deletes).toEqual(removed);
    }
    await expectHolds(driver, before);
  });

  it("refuses, before any change, to delete more than --max-deletes files", async () => {
    const { before, after, removed } = getEditions();
    const driver = getDriver();
    await driver.next();
    await run(before);
    if (!driver.incremental) return; // an archive is rewritten whole: nothing to delete
    const refused = run(after, { maxDeletes: removed.length - 1 });
    await expect(refused).rejects.toThrow(UserError);
    await expect(refused).rejects.toThrow(`would delete ${removed.length} files`);
    await expectHolds(driver, before);
    const allowed = await run(after, { maxDeletes: removed.length });
    expect(allowed.deleted).toBe(removed.length);
    await expectHolds(driver, after);
  });

  it("a publish interrupted half-way converges when run again", async () => {
    const { before, after, changed } = getEditions();
    const driver = getDriver();
    await driver.next();
    await run(before);
    const failing = failingAfter(await driver.open(), 3);
    await expect(run(after, { target: failing })).rejects.toThrow("injected failure");
    expect(failing.puts).toBe(3);
    if (!driver.incremental) await expectHolds(driver, before); // the old archive stays whole
    const rerun = await run(after);
    if (driver.incremental) {
      // What the interrupted run stored was recorded: at least those three are not sent again.
      expect(rerun.uploaded).toBeLessThanOrEqual(changed.length - 3);
      expect((await run(after)).uploaded).toBe(0);
    }
    await expectHolds(driver, after);
  });

  it("a first publish interrupted half-way converges when run again", async () => {
    const { before } = getEditions();
    const driver = getDriver();
    await driver.next();
    await expect(run(before, { target: failingAfter(await driver.open(), 5) })).rejects.toThrow(
      "injected failure",
    );
    const rerun = await run(before);
    if (driver.incremental) expect(rerun.uploaded).toBeLessThanOrEqual((await count(before)) - 5);
    await expectHolds(driver, before);
  });
}
