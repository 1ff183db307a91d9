import { parse } from "csv-parse/sync";
import { existsSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { coverSvg, photoSvg, renderJpeg } from "../media/drawn.ts";
import { STARTER } from "./starter.ts";

type Row = Record<string, string>;

/**
 * Writes the starter catalogue into `projectDir`/content: its four CSV files, a drawn cover for
 * every work and the directors' photos. Refuses, changing nothing, when content/ exists. The
 * folder is made beside content/ and renamed into place, so an interrupted init leaves none.
 * Returns the content folder's path.
 */
export async function initContent(projectDir: string): Promise<string> {
  const content = path.join(projectDir, "content");
  if (existsSync(content)) throw new UserError(`${content} exists: init changed nothing (it writes a new content folder only)`);
  await mkdir(projectDir, { recursive: true });
  const staging = path.join(projectDir, `.content-init-${process.pid}.tmp`);
  try {
    for (const [name, text] of Object.entries(STARTER)) await put(staging, name, text);
    const rows = (name: string) => parse(STARTER[name]!, { columns: true }) as Row[];
    const directors = new Map(rows("directors.csv").map((d) => [d.id, d]));
    for (const work of rows("audiovisuals.csv")) await put(staging, work.cover!, await renderJpeg(coverSvg(work, directors.get(work.director_id!)?.name ?? "")));
    for (const director of directors.values()) if (director.photo) await put(staging, director.photo, await renderJpeg(photoSvg(director)));
    await rename(staging, content);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return content;
}

async function put(root: string, rel: string, data: string | Buffer) {
  const file = path.join(root, rel);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, data);
}
