import * as fs from "node:fs/promises";
import path from "node:path";
import type { NameOrders } from "../model/domain-view.ts";
import { NAME_ORDERS, versionsFolder } from "../output/versions-folder.ts";

/**
 * Each locale's names in collation order as the last build ranked them, kept in the versions
 * folder for the next build to start from (src/model/order.ts, nameRanks): a rebuild after a
 * rename then sorts a few names instead of all of them. Only a starting order: a missing, stale
 * or damaged file costs the full sort, never a wrong order.
 */
/** The orders the last build kept; none when there is no readable file. */
export async function readNameOrders(outDir: string): Promise<NameOrders> {
  try {
    const parsed: unknown = JSON.parse(
      await fs.readFile(path.join(versionsFolder(outDir), NAME_ORDERS), "utf8"),
    );
    if (typeof parsed !== "object" || parsed === null) return {};
    return Object.fromEntries<string[]>(
      Object.entries(parsed).filter(
        ([, names]) => Array.isArray(names) && names.every((name) => typeof name === "string"),
      ),
    );
  } catch {
    return {};
  }
}

/** Keeps `orders` for the next build (written whole, then renamed into place). */
export async function writeNameOrders(outDir: string, orders: NameOrders): Promise<void> {
  const file = path.join(versionsFolder(outDir), NAME_ORDERS);
  const partial = `${file}.${process.pid}.part`;
  try {
    await fs.writeFile(partial, JSON.stringify(orders));
    await fs.rename(partial, file);
  } catch {
    await fs.rm(partial, { force: true }); // only a starting order: the next build sorts in full
  }
}
