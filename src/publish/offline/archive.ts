import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { UserError } from "../../errors.ts";
import { ZipWriter } from "../../util/zip.ts";
import { MANIFEST_PATH, manifestText, type FileEntry } from "../../output/tree.ts";
import { md5 } from "../../util/hash.ts";
import { offlineCopy, type OfflineCopy } from "./copy.ts";
import type { Published, SourceFile, Archive } from "../targets/target.ts";

/**
 * A `.zip` or `.tar.gz` offline copy: always written whole (there is nothing to compare with),
 * deterministically (entries sorted by path, every time the build date at midnight UTC, mode
 * 0644, owner 0), into a temporary file renamed over the archive once complete. It unpacks into a
 * build folder (with its own `_catalogue/files.tsv`) that `catalogue serve --dir` serves, and
 * that opens from file:// with no network: a root `index.html`, pages that reach only files of
 * the copy, and search without a server (see copy.ts).
 */

export type ArchiveFormat = "zip" | "tar.gz";

export function archiveFormat(to: string): ArchiveFormat | null {
  if (/\.zip$/i.test(to)) return "zip";
  if (/\.(tar\.gz|tgz)$/i.test(to)) return "tar.gz";
  return null;
}

/** Already-compressed formats are stored as they are: deflating them again only costs time. */
const COMPRESSED = /\.(jpe?g|png|webp|avif|gif|xlsx|woff2|pf_fragment|pf_index|pf_meta)$/i;

export class ArchiveFile implements Archive {
  readonly name: string;
  readonly requests = null;
  private readonly file: string;
  private readonly format: ArchiveFormat;
  private readonly temp: string;
  private readonly entries = new Map<string, SourceFile>();

  constructor(file: string, format: ArchiveFormat) {
    this.file = path.resolve(file);
    this.format = format;
    this.name = this.file;
    this.temp = path.join(
      path.dirname(this.file),
      `.${path.basename(this.file)}.${process.pid}.tmp`,
    );
  }

  async begin(): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true }).catch((error: Error) => {
      throw new UserError(`cannot create the folder of ${this.file}: ${error.message}`);
    });
  }

  async put(file: SourceFile): Promise<void> {
    this.entries.set(file.path, file);
  }

  async finish(published: Published): Promise<void> {
    const date = new Date(`${published.date}T00:00:00Z`);
    // HTML pages rewritten for file://, the search indexes and the root page (copy.ts).
    const copy = await offlineCopy([...this.entries.keys()], (rel) => this.text(rel));
    const names = [...new Set([...this.entries.keys(), ...copy.added.keys()])].sort();
    const files = new Map<string, FileEntry>();
    for (const rel of names) {
      const added = copy.added.get(rel);
      const { size, md5: digest } =
        added !== undefined
          ? { size: added.length, md5: md5(added) }
          : (copy.pages.get(rel) ?? this.entries.get(rel)!);
      files.set(rel, { size, md5: digest });
    }
    // The unpacked copy is a build folder of its own: its file list describes exactly its files.
    const list = Buffer.from(manifestText(files));
    const entries = [...names, MANIFEST_PATH].sort();
    const content = (rel: string) =>
      rel === MANIFEST_PATH ? Promise.resolve(list) : this.content(rel, copy);
    try {
      if (this.format === "zip") await writeZip(this.temp, published.date, entries, content);
      else await writeTarGz(this.temp, date, entries, content);
      await rename(this.temp, this.file);
    } catch (error) {
      await rm(this.temp, { force: true });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC" || code === "EACCES" || code === "EROFS")
        throw new UserError(`cannot write ${this.file}: ${(error as Error).message}`);
      throw error;
    }
  }

  /** What the copy holds at `rel`: a new file, a rewritten page, or the build's file. */
  private async content(rel: string, copy: OfflineCopy): Promise<Buffer | Readable> {
    const added = copy.added.get(rel);
    if (added !== undefined) return added;
    if (copy.pages.has(rel)) return copy.page(rel, await this.text(rel));
    const entry = this.entries.get(rel)!;
    // A stream, not archive.file(): file() stats in parallel and may reorder the entries.
    return entry.bytes ?? createReadStream(entry.abs!);
  }

  /** A file to publish, as text (pages and build.json are small: read whole). */
  private async text(rel: string): Promise<string> {
    const entry = this.entries.get(rel)!;
    return entry.bytes !== null
      ? Buffer.from(entry.bytes).toString("utf8")
      : readFile(entry.abs!, "utf8");
  }

  async abort(): Promise<void> {
    await rm(this.temp, { force: true });
  }
}

type Content = (rel: string) => Promise<Buffer | Readable>;

/**
 * A zip by the spreadsheets' writer (src/util/zip.ts), at zlib's best level: one entry at a
 * time (a page is rewritten as it is written, and one file is open at once), a compressed file
 * read whole (pages and API files are small) and deflated in one piece, a stored one streamed.
 */
async function writeZip(
  file: string,
  day: string,
  entries: readonly string[],
  content: Content,
): Promise<void> {
  const zip = new ZipWriter(file, day, { level: 9 });
  try {
    for (const rel of entries) {
      const data = await content(rel);
      const store = COMPRESSED.test(rel);
      if (data instanceof Uint8Array) zip.add(rel, data, { store });
      else if (!store) zip.add(rel, Buffer.concat(await chunksOf(data)));
      else {
        zip.startEntry(rel, { store });
        for await (const chunk of data) zip.chunk(chunk as Buffer);
        zip.endEntry();
      }
    }
    zip.finish();
  } finally {
    zip.close(); // when the writing failed (finish closes it otherwise)
  }
}

async function chunksOf(stream: Readable): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks;
}

/**
 * A tar.gz by tar-stream (loaded only then: a publish to a bucket never needs it) and zlib's gzip
 * at its best level: ustar headers with the entry's name, size, mode and date, owner 0. One
 * entry at a time, read whole, as the zip's.
 */
async function writeTarGz(
  file: string,
  date: Date,
  entries: readonly string[],
  content: Content,
): Promise<void> {
  const { pack: tarPack } = await import("tar-stream");
  const pack = tarPack();
  const written = pipeline(pack, createGzip({ level: 9 }), createWriteStream(file));
  try {
    for (const rel of entries) {
      const data = await content(rel);
      const bytes = data instanceof Uint8Array ? data : Buffer.concat(await chunksOf(data));
      await new Promise<void>((resolve, reject) =>
        pack.entry(
          { name: rel, size: bytes.length, mode: 0o644, mtime: date, type: "file" },
          bytes,
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    }
    pack.finalize();
    await written;
  } catch (error) {
    pack.destroy();
    await written.catch(() => {});
    throw error;
  }
}
