import { iso2709FieldBytes } from "./iso2709.ts";
import { MAX_FIELD_BYTES, MAX_RECORD_BYTES, type DataField, type Field } from "./record.ts";

/**
 * Keeping a record inside ISO 2709's limits (a field of at most 9,999 bytes, a record of at most
 * 99,999), so that the serialisers never meet one that is not. The synopsis is the long text: it
 * is cut at a word boundary and ends with an ellipsis and a bracketed note in the domain's
 * language (`… [sinopsis abreviada].`). Any other field that alone is too long (a title of
 * thousands of words) is cut the same way with an ellipsis; a link too long for a field is left
 * out, since a cut one would lead nowhere. A record still too long loses whole fields, last
 * added first: directors, other titles, the language note, age rating, genre, language codes.
 * Whatever is cut, 008/38 says `s` (shortened).
 */

const segmenters = new Map<string, { words: Intl.Segmenter; graphemes: Intl.Segmenter }>();

function segmentersFor(locale: string) {
  let found = segmenters.get(locale);
  if (found === undefined) {
    found = {
      words: new Intl.Segmenter(locale, { granularity: "word" }),
      graphemes: new Intl.Segmenter(locale, { granularity: "grapheme" }),
    };
    segmenters.set(locale, found);
  }
  return found;
}

/** Ends of a cut text that would dangle before the ellipsis: white space, dashes, openers, commas. */
const DANGLING = /[\s\p{Pd}\p{Ps}\p{Pi},;:]+$/u;

/**
 * The longest start of `text` that ends at a word boundary (Unicode's rules for `locale`, so a
 * text without spaces is cut between words too) and takes at most `maxBytes` in UTF-8, without the
 * white space and punctuation it would end with. A first word longer than that is cut between
 * characters as the reader sees them (a base letter keeps its combining marks).
 */
export function cutAtWord(text: string, maxBytes: number, locale: string): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  // maxBytes UTF-16 units hold at least maxBytes bytes: enough text to reach the limit.
  const window = text.slice(0, maxBytes + 1);
  const { words, graphemes } = segmentersFor(locale);
  let end = lastEnd(
    words.segment(window),
    maxBytes,
    window.length < text.length ? window.length : Infinity,
  );
  if (end === 0)
    end = lastEnd(
      graphemes.segment(window),
      maxBytes,
      window.length < text.length ? window.length : Infinity,
    );
  return text.slice(0, end).replace(DANGLING, "");
}

/** The end of the last segment within `maxBytes`, not counting one that reaches `open` (it may go on past the window). */
function lastEnd(segments: Intl.Segments, maxBytes: number, open: number): number {
  let end = 0;
  let bytes = 0;
  for (const { segment, index } of segments) {
    bytes += Buffer.byteLength(segment);
    if (bytes > maxBytes || index + segment.length >= open) break;
    end = index + segment.length;
  }
  return end;
}

/**
 * At most the bytes `fields` take (directory entries included): three UTF-8 bytes for each UTF-16
 * unit, which most records are far enough under to need no exact count.
 */
function upperBound(fields: readonly DataField[]): number {
  let bytes = 0;
  for (const field of fields) {
    bytes += 12 + 3;
    for (const { value } of field.subfields) bytes += 2 + 3 * value.length;
  }
  return bytes;
}

/** A data field's value with one subfield's text replaced. */
const withValue = (field: DataField, at: number, value: string): DataField => ({
  ...field,
  subfields: field.subfields.map((subfield, i) =>
    i === at ? { code: subfield.code, value } : subfield,
  ),
});

/**
 * `field` within the field limit, its longest subfield cut and ended with `ending` when it is not
 * (245 wants a period after the ellipsis); null, when `ending` is null, for a field that must not
 * be cut (a link).
 */
export function fitField(
  field: DataField,
  locale: string,
  ending: string | null = "…",
): DataField | null {
  if (upperBound([field]) <= MAX_FIELD_BYTES) return field;
  let fitted = field;
  for (
    let excess = iso2709FieldBytes(fitted) - MAX_FIELD_BYTES;
    excess > 0;
    excess = iso2709FieldBytes(fitted) - MAX_FIELD_BYTES
  ) {
    if (ending === null) return null;
    let longest = 0;
    fitted.subfields.forEach(({ value }, i) => {
      if (Buffer.byteLength(value) > Buffer.byteLength(fitted.subfields[longest]!.value))
        longest = i;
    });
    const value = fitted.subfields[longest]!.value;
    fitted = withValue(
      fitted,
      longest,
      cutAtWord(
        value,
        Math.max(0, Buffer.byteLength(value) - excess - Buffer.byteLength(ending)),
        locale,
      ) + ending,
    );
  }
  return fitted;
}

/** The synopsis field (520) with its text cut to take at most `maxBytes`, and the note saying so. */
export function cutSynopsis(
  field: DataField,
  maxBytes: number,
  note: string,
  locale: string,
): DataField | null {
  if (upperBound([field]) <= maxBytes || iso2709FieldBytes(field) <= maxBytes) return field;
  const ending = `… [${note}].`;
  const room =
    maxBytes -
    (iso2709FieldBytes(field) - Buffer.byteLength(field.subfields[0]!.value)) -
    Buffer.byteLength(ending);
  const cut = room > 0 ? cutAtWord(field.subfields[0]!.value, room, locale) : "";
  return cut === "" ? null : withValue(field, 0, cut + ending);
}

/** The fields a record still too long loses, in this order (of each tag, the last one first). */
const DROPPED = ["700", "246", "546", "521", "655", "041"];

/**
 * The data fields of a record whose control fields take `controlBytes` (directory entries
 * included), within the record limit. `shortened` is set when anything was cut or left out.
 */
export function fitRecord(
  fields: DataField[],
  controlBytes: number,
  synopsisNote: string,
  locale: string,
): { fields: DataField[]; shortened: boolean } {
  if (upperBound(fields) + controlBytes + 26 <= MAX_RECORD_BYTES)
    return { fields, shortened: false };
  const size = (list: readonly Field[]) =>
    list.reduce((bytes, field) => bytes + 12 + iso2709FieldBytes(field), controlBytes + 24 + 1 + 1);
  let fitted = fields;
  let shortened = false;
  const synopsis = fitted.findIndex((field) => field.tag === "520");
  if (synopsis >= 0 && size(fitted) > MAX_RECORD_BYTES) {
    const room = MAX_RECORD_BYTES - (size(fitted) - iso2709FieldBytes(fitted[synopsis]!));
    const cut = cutSynopsis(fitted[synopsis]!, room, synopsisNote, locale);
    fitted =
      cut === null
        ? fitted.filter((_, i) => i !== synopsis)
        : fitted.map((field, i) => (i === synopsis ? cut : field));
    shortened = true;
  }
  for (const tag of DROPPED) {
    while (size(fitted) > MAX_RECORD_BYTES) {
      const last = fitted.findLastIndex((field) => field.tag === tag);
      if (last < 0) break;
      fitted = fitted.filter((_, i) => i !== last);
      shortened = true;
    }
  }
  return { fields: fitted, shortened };
}
