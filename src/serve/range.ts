/**
 * `Range` requests on files (RFC 9110 14), for the servers that answer them themselves
 * (`catalogue serve` and the edge function; nginx and Caddy do it natively): one range of the
 * file's uncompressed bytes, whose ETag is strong. Several ranges are answered with the whole
 * file (allowed, and what a resumed download never asks for).
 */

export type RangeOutcome =
  /** Send the whole file (no Range, an If-Range that does not match, several or malformed ranges). */
  | { kind: "whole" }
  /** 206: bytes start..end (inclusive). */
  | { kind: "part"; start: number; end: number; contentRange: string }
  /** 416: no byte of the file is in the range. */
  | { kind: "unsatisfiable"; contentRange: string };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * What to answer for `range` (the header) on a file of `size` bytes whose strong validator is
 * `etag`. An `If-Range` must be that same strong ETag (a weak one or a date never matches: no
 * Last-Modified is sent, so a date cannot name this representation).
 */
export function rangeOf(
  range: string | null | undefined,
  ifRange: string | null | undefined,
  size: number,
  etag: string | null,
): RangeOutcome {
  if (range === undefined || range === null) return { kind: "whole" };
  if (
    ifRange !== undefined &&
    ifRange !== null &&
    (etag === null || etag.startsWith("W/") || ifRange.trim() !== etag)
  )
    return { kind: "whole" };
  const match = SINGLE.exec(range.trim());
  if (match === null) return { kind: "whole" };
  const [, first, last] = match as unknown as [string, string, string];
  let start: number;
  let end: number;
  if (first === "") {
    // A suffix: the last N bytes.
    if (last === "") return { kind: "whole" };
    const length = Number(last);
    if (length === 0) return { kind: "unsatisfiable", contentRange: `bytes */${size}` };
    start = Math.max(0, size - length);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== "" && Number(last) < start) return { kind: "whole" };
  }
  if (start >= size || size === 0)
    return { kind: "unsatisfiable", contentRange: `bytes */${size}` };
  return { kind: "part", start, end, contentRange: `bytes ${start}-${end}/${size}` };
}
