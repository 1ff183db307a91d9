import { z } from "zod";
import type { PublishedEntry } from "../targets/target.ts";

/**
 * `_catalogue/published.json`, the whole-target manifest of publishers before per-domain records
 * (records/records.ts). A target that still has one is read through it once: its entries say which files
 * were published (so their deletes are routine) and with which keys and headers; the first
 * publish of the whole target then removes it.
 */

const entry = z.object({
  size: z.number(),
  md5: z.string(),
  key: z.string().optional(),
  contentType: z.string(),
  cacheControl: z.string(),
  contentDisposition: z.string().optional(),
  mtimeMs: z.number().optional(),
});
const manifest = z.object({
  generator: z.literal("catalogue"),
  date: z.string(),
  files: z.record(z.string(), entry),
});

/** Null when the bytes are not a manifest of ours. */
export function decodeManifest(bytes: Buffer | string): Map<string, PublishedEntry> | null {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString());
  } catch {
    return null;
  }
  const parsed = manifest.safeParse(json);
  return parsed.success ? new Map(Object.entries(parsed.data.files)) : null;
}
