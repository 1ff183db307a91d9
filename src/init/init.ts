import { parse } from "csv-parse/sync";
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../errors.ts";
import { coverSvg, photoSvg, renderJpeg } from "../draw/draw.ts";
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
  if (existsSync(content))
    throw new UserError(
      `${content} exists: init changed nothing (it writes a new content folder only)`,
    );
  await mkdir(projectDir, { recursive: true });
  const staging = path.join(projectDir, `.content-init-${process.pid}.tmp`);
  try {
    for (const [name, text] of Object.entries(STARTER)) await put(staging, name, text);
    const rows = (name: string) => parse<Row>(STARTER[name]!, { columns: true });
    const directors = new Map(rows("directors.csv").map((d) => [d.id, d]));
    for (const work of rows("audiovisuals.csv"))
      await put(
        staging,
        work.cover!,
        await renderJpeg(coverSvg(work, directors.get(work.director_id)?.name ?? "")),
      );
    for (const director of directors.values())
      if (director.photo) await put(staging, director.photo, await renderJpeg(photoSvg(director)));
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

/** What the command writes beside content/ and must stay out of the project's repository. */
const IGNORED = ["dist", ".dist.versions", ".cache"] as const;

/**
 * Writes `projectDir`/.gitignore with the folders the command writes (the output, its kept
 * versions, the image cache), or adds to an existing one the lines it lacks. Returns the lines added.
 */
export async function writeGitignore(projectDir: string): Promise<string[]> {
  const file = path.join(projectDir, ".gitignore");
  const existing = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  const present = new Set(
    (existing ?? "").split(/\r?\n/).map((line) => line.trim().replace(/^\/|\/$/g, "")),
  );
  const added = IGNORED.filter((name) => !present.has(name));
  if (added.length === 0) return [];
  const lines = `# written by catalogue build, dev and deploy\n${added.map((name) => `/${name}/`).join("\n")}\n`;
  if (existing === null) await writeFile(file, lines);
  else await appendFile(file, `${existing === "" || existing.endsWith("\n") ? "" : "\n"}${lines}`);
  return added;
}
