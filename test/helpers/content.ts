import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

export type ContentFiles = Partial<
  Record<"domains" | "directors" | "audiovisuals" | "availability", string>
>;

/** A minimal valid catalogue: two domains, two directors, three works. Tests override files. */
export const MINIMAL: Required<ContentFiles> = {
  domains:
    "domain,name,locale,default_ordering\nuno.example,Uno,es,name\ndos.example,Dos,en,-year\n",
  directors:
    "id,name,slug,photo,show_img,description_es,description_en\n1,Georges Méliès,georges-melies,photos/melies.png,true,Ilusionista francés.,French illusionist.\n2,Alice Guy,alice-guy,,false,,Pioneer.\n",
  audiovisuals:
    "id,name,slug,audiovisual_type,director_id,year,duration,cover\n" +
    "10,Viaje a la Luna,viaje-a-la-luna,cortometrajes,1,1902,14,covers/a.png\n" +
    "11,La fée aux choux,la-fee-aux-choux,peliculas,2,1896,1,covers/b.png\n" +
    "12,Élan,elan,,,,,covers/a.png\n",
  availability:
    "audiovisual_id,domain,available_from,available_until\n" +
    "10,uno.example,2020-01-01,\n11,uno.example,2026-11-10,2026-12-31\n12,uno.example,2020-01-01,\n10,dos.example,2026-11-01,\n",
};

/** A small real PNG, so image checks pass. */
export async function tinyPng(file: string, colour = "#336699"): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    await sharp({ create: { width: 40, height: 60, channels: 3, background: colour } })
      .png()
      .toBuffer(),
  );
}

/** Writes a content folder from CSV texts (the minimal catalogue where a file is not given). */
export async function writeContent(
  dir: string,
  files: ContentFiles = {},
  images = ["covers/a.png", "covers/b.png", "photos/melies.png"],
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const all = { ...MINIMAL, ...files };
  for (const [name, text] of Object.entries(all))
    await writeFile(path.join(dir, `${name}.csv`), text);
  let colour = 0;
  for (const image of images)
    await tinyPng(path.join(dir, image), `#${(0x224466 + colour++ * 0x101010).toString(16)}`);
  return dir;
}
