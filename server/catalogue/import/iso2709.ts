import type { MarcField } from '@natlibfi/marc-record';

/**
 * A MARC record as read: its leader and fields, shaped as `@natlibfi/marc-record` shapes them
 * (control fields have a value, data fields indicators and subfields), without its class.
 */
export interface MarcData {
  leader: string;
  fields: MarcField[];
}

/** The byte that ends an ISO 2709 record. */
export const RECORD_TERMINATOR = 0x1d;
const FIELD_TERMINATOR = 0x1e;
const SUBFIELD_DELIMITER = '\x1f';
const LEADER_LENGTH = 24;
const ENTRY_LENGTH = 12;

/** The number `bytes[start, end)` spells in ASCII digits, or -1 when they are not all digits. */
function digits(bytes: Buffer, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const byte = bytes[index]!;
    if (byte < 0x30 || byte > 0x39) return -1;
    value = value * 10 + byte - 0x30;
  }
  return value;
}

/**
 * Reads one MARC 21 record of ISO 2709: `bytes` up to, not including, its 0x1D terminator; its
 * leader, directory and fields as the leader and directory lay them out, each field's bytes
 * decoded as UTF-8. Returns why it cannot be read instead of throwing: a length or base address
 * that does not fit the bytes, a directory entry that is not digits or points outside the record.
 * The same fields as `ISO2709.from` of @natlibfi/marc-record-serializers, which also checks every
 * record against a JSON schema, at about a hundredth of its cost (decision 027).
 */
export function readIso2709Record(bytes: Buffer): { record: MarcData } | { error: string } {
  if (bytes.length < LEADER_LENGTH + 1) {
    return { error: 'the record is shorter than its 24-character leader' };
  }
  const leader = bytes.toString('latin1', 0, LEADER_LENGTH);
  const length = digits(bytes, 0, 5);
  if (length < 0) {
    return { error: `the leader's record length "${leader.slice(0, 5)}" is not a number` };
  }
  if (length !== bytes.length + 1) {
    return { error: `the leader says ${length} bytes, the record has ${bytes.length + 1}` };
  }
  const base = digits(bytes, 12, 17);
  if (base <= LEADER_LENGTH || base > bytes.length) {
    return {
      error: `the leader's base address "${leader.slice(12, 17)}" is not inside the record`,
    };
  }
  // The directory runs from the leader to the field terminator just before the base address.
  if (bytes[base - 1] !== FIELD_TERMINATOR || (base - 1 - LEADER_LENGTH) % ENTRY_LENGTH !== 0) {
    return { error: 'the directory does not end at the base address the leader gives' };
  }
  const fields: MarcField[] = [];
  for (let entry = LEADER_LENGTH; entry < base - 1; entry += ENTRY_LENGTH) {
    const tag = bytes.toString('latin1', entry, entry + 3);
    const fieldLength = digits(bytes, entry + 3, entry + 7);
    const fieldStart = digits(bytes, entry + 7, entry + 12);
    const which = `directory entry ${(entry - LEADER_LENGTH) / ENTRY_LENGTH + 1} (${JSON.stringify(tag)})`;
    if (fieldLength < 0 || fieldStart < 0) {
      return {
        error: `${which}: its length or start "${bytes.toString('latin1', entry + 3, entry + 12)}" is not a number`,
      };
    }
    const start = base + fieldStart;
    let end = start + fieldLength;
    if (end > bytes.length) return { error: `${which}: the field runs past the end of the record` };
    if (end > start && bytes[end - 1] === FIELD_TERMINATOR) end -= 1;
    fields.push(
      tag.startsWith('00')
        ? { tag, value: bytes.toString('utf8', start, end) }
        : dataField(tag, bytes, start, end),
    );
  }
  return { record: { leader, fields } };
}

/** A data field: two indicators, then subfields, each a delimiter, a code and its value. */
function dataField(tag: string, bytes: Buffer, start: number, end: number): MarcField {
  const text = bytes.toString('utf8', start, end);
  // A field too short for its indicators, or that starts its subfields early, has blank ones.
  const first = text.indexOf(SUBFIELD_DELIMITER);
  const indicators = first === -1 || first >= 2 ? text.slice(0, 2).padEnd(2) : '  ';
  const subfields: { code: string; value: string }[] = [];
  if (first !== -1) {
    for (const part of text.slice(first + 1).split(SUBFIELD_DELIMITER)) {
      if (part !== '') subfields.push({ code: part.charAt(0), value: part.slice(1) });
    }
  }
  return { tag, ind1: indicators.charAt(0), ind2: indicators.charAt(1), subfields };
}
