/**
 * The candidate closest to a mistyped word (a column, a command, a flag), when it is close enough
 * to be what was meant; undefined otherwise. Case is ignored; a swap of two neighbouring letters
 * counts as one edit ("nmae" is one from "name"), and the edits allowed grow with the length.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const typed = word.toLowerCase();
  const allowed = typed.length <= 3 ? 1 : typed.length <= 7 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = allowed + 1;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}
