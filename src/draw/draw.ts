import sharp from "sharp";

/**
 * The placeholder images of a sample catalogue: every cover (400x600) and director photo
 * (300x300) is drawn from the CSV data as an SVG and rendered with sharp, never downloaded.
 * Colours come from a hash of the slug, so the same CSV always yields the same bytes (on the
 * same sharp/libvips build and fonts). Used by `catalogue init`, scripts/make-covers.ts, and the
 * build for a cover or photo that is missing (src/content/missing-images.ts).
 */

type Row = Record<string, string | undefined>;

const FONT = "'DejaVu Serif', 'Liberation Serif', serif";
const SANS = "'DejaVu Sans', 'Liberation Sans', sans-serif";
const JPEG = { quality: 80, mozjpeg: true } as const;

const TYPE_LABELS: Record<string, string> = {
  peliculas: "PELÍCULA",
  documentales: "DOCUMENTAL",
  cortometrajes: "CORTOMETRAJE",
  "artes-escenicas": "ARTES ESCÉNICAS",
};

function escapeXml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** FNV-1a 32-bit: a small stable hash so colours depend only on the slug. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, "utf8")) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function hsl(h: number, s: number, l: number): string {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): string => {
    const k = (n + h / 30) % 12;
    const c = l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(c * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}

function palette(slug: string): {
  from: string;
  to: string;
  accent: string;
  angle: number;
  h: number;
} {
  const h = hash(slug);
  const hue = h % 360;
  const hue2 = (hue + 25 + ((h >>> 9) % 50)) % 360;
  return {
    from: hsl(hue, 0.45, 0.3),
    to: hsl(hue2, 0.5, 0.12),
    accent: hsl((hue + 180) % 360, 0.55, 0.62),
    angle: (h >>> 17) % 4,
    h,
  };
}

/** Greedy word wrap; returns null when a single word does not fit. */
function wrap(text: string, maxChars: number): string[] | null {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (word.length > maxChars) return null;
    if (!line) line = word;
    else if (line.length + 1 + word.length <= maxChars) line += " " + word;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Picks the largest font size whose wrapped title fits the title area. */
function layoutTitle(
  title: string,
  width: number,
  maxHeight: number,
): { size: number; lines: string[] } {
  for (const size of [58, 52, 46, 40, 36, 32, 28, 24]) {
    // DejaVu Serif Bold averages ~0.62em per glyph in lower case, more in
    // capitals and wide letters (m, w): stay conservative.
    const lines = wrap(title, Math.floor(width / (size * 0.7)));
    if (lines && lines.length * size * 1.15 <= maxHeight) return { size, lines };
  }
  return { size: 22, lines: wrap(title, Math.floor(width / (22 * 0.7))) ?? [title] };
}

function gradient(id: string, p: ReturnType<typeof palette>): string {
  const dirs = [
    ["0", "0", "0", "1"],
    ["0", "0", "1", "1"],
    ["1", "0", "0", "1"],
    ["0", "1", "1", "0"],
  ] as const;
  const [x1, y1, x2, y2] = dirs[p.angle] ?? dirs[0];
  return (
    `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">` +
    `<stop offset="0" stop-color="${p.from}"/><stop offset="1" stop-color="${p.to}"/></linearGradient>`
  );
}

export function coverSvg(work: Row, director: string): string {
  const W = 400;
  const H = 600;
  const p = palette(work.slug ?? "");
  const title = (work.name ?? "").trim();
  const { size, lines } = layoutTitle(title, W - 80, 300);
  const lineH = Math.round(size * 1.15);
  const blockH = lines.length * lineH;
  const top = 110 + Math.round((320 - blockH) / 2) + Math.round(size * 0.85);
  const label = TYPE_LABELS[work.audiovisual_type ?? ""] ?? "CATÁLOGO";
  const year = work.year?.trim() || "s. f.";
  const meta = [year, director].filter(Boolean).join(" · ");
  const metaSize = meta.length > 34 ? 15 : 18;
  // Two decorative rings whose position is derived from the hash.
  const cx = 60 + (p.h % 280);
  const cy = 90 + ((p.h >>> 8) % 420);
  const r = 90 + ((p.h >>> 16) % 90);

  const titleTspans = lines
    .map((l, i) => `<tspan x="${W / 2}" y="${top + i * lineH}">${escapeXml(l)}</tspan>`)
    .join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>${gradient("bg", p)}</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="${p.accent}" stroke-opacity="0.25" stroke-width="18"/>
<circle cx="${W - cx}" cy="${H - cy}" r="${Math.round(r * 0.6)}" fill="none" stroke="#ffffff" stroke-opacity="0.12" stroke-width="6"/>
<rect x="20" y="20" width="${W - 40}" height="${H - 40}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="2"/>
<text x="${W / 2}" y="70" font-family="${SANS}" font-size="15" letter-spacing="3" fill="${p.accent}" text-anchor="middle">${escapeXml(label)}</text>
<line x1="150" y1="88" x2="250" y2="88" stroke="${p.accent}" stroke-width="2"/>
<text font-family="${FONT}" font-weight="bold" font-size="${size}" fill="#ffffff" text-anchor="middle">${titleTspans}</text>
<rect x="20" y="${H - 110}" width="${W - 40}" height="90" fill="#000000" fill-opacity="0.35"/>
<text x="${W / 2}" y="${H - 58}" font-family="${SANS}" font-size="${metaSize}" fill="#f2f2f2" text-anchor="middle">${escapeXml(meta)}</text>
</svg>`;
}

export function photoSvg(director: Row): string {
  const S = 300;
  const p = palette(director.slug ?? "");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">
<defs>${gradient("bg", p)}</defs>
<rect width="${S}" height="${S}" fill="url(#bg)"/>
<circle cx="150" cy="118" r="58" fill="#ffffff" fill-opacity="0.78"/>
<path d="M50 300 C50 215 95 188 150 188 C205 188 250 215 250 300 Z" fill="#ffffff" fill-opacity="0.78"/>
<circle cx="150" cy="150" r="138" fill="none" stroke="${p.accent}" stroke-opacity="0.5" stroke-width="4"/>
</svg>`;
}

/** An SVG drawn above as a JPEG file"s bytes. */
export function renderJpeg(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg)).jpeg(JPEG).toBuffer();
}
