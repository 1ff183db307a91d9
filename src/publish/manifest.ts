import { z } from "zod";
import type { Published, PublishedEntry } from "./target.ts";

/**
 * `_catalogue/published.json`, stored in the target after everything else: each file's MD5, the
 * key it was built with (see publish/digests.ts) and the headers it was stored with, so a change of headers alone is published too. A target may add
 * its own fields to an entry (the directory target keeps the file's mtime for its quick check).
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
const manifest = z.object({ generator: z.literal("catalogue"), date: z.string(), files: z.record(z.string(), entry) });

export type StoredEntry = z.infer<typeof entry>;

export function encodeManifest(published: Published, extra?: (rel: string) => Partial<StoredEntry>): Buffer {
  const files: Record<string, StoredEntry> = {};
  for (const rel of [...published.files.keys()].sort()) files[rel] = { ...published.files.get(rel)!, ...extra?.(rel) };
  return Buffer.from(JSON.stringify({ generator: "catalogue", date: published.date, files }));
}

/** Null when the bytes are not a manifest of ours: the target is then treated as unrecorded. */
export function decodeManifest(bytes: Buffer | string): Map<string, StoredEntry & PublishedEntry> | null {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString());
  } catch {
    return null;
  }
  const parsed = manifest.safeParse(json);
  return parsed.success ? new Map(Object.entries(parsed.data.files)) : null;
}
