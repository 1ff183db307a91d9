/**
 * A MARC 21 bibliographic record as the serialisers take it: a leader, then fields in the order
 * they are written (control fields 001-009 first, then data fields, each group in tag order, as
 * MARC 21 asks). Values are text; the serialisers turn it into UTF-8 and compute every length.
 */

export interface ControlField {
  readonly tag: string;
  readonly value: string;
}

export interface Subfield {
  readonly code: string;
  readonly value: string;
}

export interface DataField {
  readonly tag: string;
  readonly ind1: string;
  readonly ind2: string;
  readonly subfields: readonly Subfield[];
}

export type Field = ControlField | DataField;

export interface MarcRecord {
  /**
   * The 24 characters of the leader. Positions 00-04 (record length) and 12-16 (base address of
   * data) are written by the serialisers, whatever they hold here.
   */
  readonly leader: string;
  readonly fields: readonly Field[];
}

export const isControlField = (field: Field): field is ControlField => "value" in field;

/**
 * Fields a mapping makes once and puts in many records (fixed values, a year, a genre): the
 * serialisers encode each once and copy its bytes into every record that holds it. Such a field
 * must never change (none does: nothing changes a record's fields).
 */
const sharedFields = new WeakSet<Field>();

/** Marks `field` as put in many records (see sharedFields); gives it back. */
export function shared<F extends Field>(field: F): F {
  sharedFields.add(field);
  return field;
}

export const isShared = (field: Field): boolean => sharedFields.has(field);

/** ISO 2709 writes a record's length in five digits. */
export const MAX_RECORD_BYTES = 99_999;
/** ...and each field's length, its terminator included, in four (MARC 21's leader/20 is `4`). */
export const MAX_FIELD_BYTES = 9_999;

/**
 * Characters XML 1.0 cannot hold, even escaped: C0 controls but tab, line feed and carriage return
 * (ISO 2709's separators among them), and halves of surrogate pairs standing alone. With them the
 * 66 noncharacters (U+FDD0-U+FDEF, and the last two code points of every plane): XML allows most
 * of them, but Perl's MARC::Record (which Koha reads records with) refuses a record holding one.
 * Both serialisers drop them all, so the two files of a record always hold the same text.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids
  /[\x00-\x08\x0b\x0c\x0e-\x1f\ufdd0-\ufdef\ufffe\uffff]|[\ud83f\ud87f\ud8bf\ud8ff\ud93f\ud97f\ud9bf\ud9ff\uda3f\uda7f\udabf\udaff\udb3f\udb7f\udbbf\udbff][\udffe\udfff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, "g");
/** What any of them starts with: a test without look-arounds, for the usual text that has none. */
// eslint-disable-next-line no-control-regex -- the same control characters
const SUSPECT = /[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/;

/**
 * A record the mapping made (map.ts, marcMapper): well formed and clean by construction (fixed
 * tags, indicators and codes; every value cleaned as it is read), which
 * test/marc/map.unit.test.ts holds for any input. The serialisers skip checkStructure and
 * withoutForbidden for it, a large share of writing a record (docs/performance.md). A copy of
 * it is a plain record, checked again.
 */
export class MappedRecord implements MarcRecord {
  constructor(
    readonly leader: string,
    readonly fields: readonly Field[],
  ) {}
}

/** `text` without the characters XML forbids (the same string when it has none, which is the rule). */
export function dropForbidden(text: string): string {
  return SUSPECT.test(text) && FORBIDDEN.test(text) ? text.replace(FORBIDDEN_ALL, "") : text;
}

/**
 * `record` with dropForbidden applied to every value: the same record when none may need it,
 * found by testing each value (joining them first made a text the test had to copy flat).
 */
export function withoutForbidden(record: MarcRecord): MarcRecord {
  if (record instanceof MappedRecord || !hasSuspect(record)) return record;
  return {
    leader: record.leader,
    fields: record.fields.map((field) =>
      isControlField(field)
        ? { tag: field.tag, value: dropForbidden(field.value) }
        : {
            ...field,
            subfields: field.subfields.map(({ code, value }) => ({
              code,
              value: dropForbidden(value),
            })),
          },
    ),
  };
}

function hasSuspect(record: MarcRecord): boolean {
  for (const field of record.fields) {
    if (isControlField(field)) {
      if (SUSPECT.test(field.value)) return true;
    } else for (const { value } of field.subfields) if (SUSPECT.test(value)) return true;
  }
  return false;
}

const TAG = /^[0-9A-Za-z]{3}$/;
const INDICATORS = new Set("0123456789abcdefghijklmnopqrstuvwxyz ");
const CODES = new Set("0123456789abcdefghijklmnopqrstuvwxyz");
/** Tags already checked, and whether each is a control field's (a catalogue's records use a few dozen); the last leader. */
const goodTags = new Map<string, boolean>();
let goodLeader = "";

/** Throws (a bug: the mapping made the record) when a leader, tag, indicator or code is malformed. */
export function checkStructure(record: MarcRecord): void {
  if (record instanceof MappedRecord) return;
  if (record.leader !== goodLeader) {
    if (!/^[\x20-\x7e]{24}$/.test(record.leader))
      throw new Error(`MARC leader must be 24 ASCII characters: ${JSON.stringify(record.leader)}`);
    goodLeader = record.leader;
  }
  for (const field of record.fields) {
    let control = goodTags.get(field.tag);
    if (control === undefined) {
      if (!TAG.test(field.tag))
        throw new Error(`MARC tag must be 3 letters or digits: ${JSON.stringify(field.tag)}`);
      control = /^00\d$/.test(field.tag);
      if (goodTags.size < 1000) goodTags.set(field.tag, control);
    }
    if (control !== isControlField(field))
      throw new Error(
        `MARC field ${field.tag}: tags 001-009 are control fields, the others data fields`,
      );
    if (control) continue;
    const { ind1, ind2, subfields } = field as DataField;
    if (!INDICATORS.has(ind1) || !INDICATORS.has(ind2))
      throw new Error(
        `MARC field ${field.tag}: indicators must be a digit, a lowercase letter or a blank`,
      );
    if (subfields.length === 0) throw new Error(`MARC field ${field.tag} has no subfield`);
    for (const { code } of subfields)
      if (!CODES.has(code))
        throw new Error(`MARC field ${field.tag}: subfield code ${JSON.stringify(code)}`);
  }
}
