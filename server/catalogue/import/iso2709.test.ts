import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MarcRecord, type MarcField } from '@natlibfi/marc-record';
import { ISO2709 } from '@natlibfi/marc-record-serializers';
import { describe, expect, it } from 'vitest';
import { readIso2709Record, RECORD_TERMINATOR } from './iso2709.ts';
import { marcRecords } from './marc.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'marc-sample.mrc');

/** The library's reading of a record, every check off, as a plain object. */
function libraryRead(bytes: Buffer) {
  const record = ISO2709.from(bytes.toString('utf8'), {
    fields: false,
    subfields: false,
    subfieldValues: false,
    controlFieldValues: false,
  });
  return { leader: record.leader, fields: record.fields };
}

function ours(bytes: Buffer) {
  const read = readIso2709Record(bytes);
  if ('error' in read) throw new Error(read.error);
  return read.record;
}

/** A record's bytes without its terminator, as the importer hands them over. */
const encode = (record: MarcRecord) => Buffer.from(ISO2709.to(record), 'utf8').subarray(0, -1);

/** Splits a file's bytes on 0x1D. */
function split(bytes: Buffer): Buffer[] {
  const records: Buffer[] = [];
  for (let end = bytes.indexOf(RECORD_TERMINATOR); end !== -1;) {
    records.push(bytes.subarray(0, end));
    bytes = bytes.subarray(end + 1);
    end = bytes.indexOf(RECORD_TERMINATOR);
  }
  return records;
}

/** A small deterministic generator (mulberry32), so a failure can be run again. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

const ALPHABET = [
  ...'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;/=-()[]&',
  ...'éèüßçñøåÆŒłżąčš',
  ...'北京の本屋東京図書館李明',
  'Ω',
  'ж',
  'ا',
  '€',
];

function generated(seed: number): MarcRecord {
  const next = random(seed);
  const text = (max: number) =>
    Array.from({ length: next(max + 1) }, () => ALPHABET[next(ALPHABET.length)]).join('');
  const fields: MarcField[] = [{ tag: '001', value: `gen-${seed}` }];
  if (next(2)) fields.push({ tag: '008', value: `${'0'.repeat(7)}${1900 + next(120)}xx` });
  for (let count = 1 + next(25); count > 0; count -= 1) {
    const tag = String(10 + next(990)).padStart(3, '0');
    const subfields = Array.from({ length: 1 + next(6) }, () => ({
      code: 'abcdefghpqxyz0123456789'.charAt(next(23)),
      value: text(next(10) === 0 ? 600 : 40),
    }));
    const indicator = () => ' 0123456789'.charAt(next(11));
    fields.push({ tag, ind1: indicator(), ind2: indicator(), subfields });
  }
  return new MarcRecord(
    { leader: `00000${next(2) ? 'n' : 'c'}am a2200000 a 4500`, fields },
    { subfieldValues: false },
  );
}

describe('reading ISO 2709', () => {
  it('reads every fixture record as @natlibfi/marc-record-serializers does', async () => {
    const records = split(await readFile(FIXTURE));
    expect(records).toHaveLength(4);
    // Record 2's leader gives the wrong length, which the library does not check.
    expect(readIso2709Record(records[1]!)).toEqual({
      error: 'the leader says 78 bytes, the record has 68',
    });
    for (const bytes of [records[0]!, records[2]!, records[3]!]) {
      expect(ours(bytes)).toEqual(libraryRead(bytes));
    }
    expect(ours(records[2]!).fields[2]).toEqual({
      tag: '100',
      ind1: '0',
      ind2: ' ',
      subfields: [{ code: 'a', value: '李明' }],
    });
  });

  it('reads 400 generated records as the library does: UTF-8, long fields, empty values', () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const bytes = encode(generated(seed));
      const expected = libraryRead(bytes);
      const actual = ours(bytes);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        expect({ seed, actual }).toEqual({ seed, actual: expected });
      }
    }
  });

  it('says why a record cannot be read, never throws', () => {
    const good = encode(generated(7));
    const leader = (at: number, text: string) =>
      Buffer.concat([good.subarray(0, at), Buffer.from(text), good.subarray(at + text.length)]);
    expect(readIso2709Record(Buffer.from('00012nam'))).toEqual({
      error: 'the record is shorter than its 24-character leader',
    });
    expect(readIso2709Record(leader(0, '0x123'))).toEqual({
      error: 'the leader\'s record length "0x123" is not a number',
    });
    expect(readIso2709Record(good.subarray(0, -10))).toEqual({
      error: `the leader says ${good.length + 1} bytes, the record has ${good.length - 9}`,
    });
    expect(readIso2709Record(leader(12, '99999'))).toEqual({
      error: 'the leader\'s base address "99999" is not inside the record',
    });
    expect(readIso2709Record(leader(12, '00020'))).toEqual({
      error: 'the leader\'s base address "00020" is not inside the record',
    });
    expect(readIso2709Record(leader(27, '00x4'))).toEqual({
      error: 'directory entry 1 ("001"): its length or start "00x400000" is not a number',
    });
    expect(readIso2709Record(leader(27, '9999'))).toEqual({
      error: 'directory entry 1 ("001"): the field runs past the end of the record',
    });
    const base = Number(good.toString('latin1', 12, 17));
    expect(readIso2709Record(leader(12, String(base + 1).padStart(5, '0')))).toEqual({
      error: 'the directory does not end at the base address the leader gives',
    });

    // Every byte of the leader and directory replaced, every length of the record cut short with
    // its leader's length made to fit: a record or a reason, at once.
    const next = random(20);
    for (let at = 0; at < base; at += 1) {
      for (const byte of [0x30 + next(10), 0x20, 0x1e, 0x1f, 0xff]) {
        const bytes = Buffer.from(good);
        bytes[at] = byte;
        const read = readIso2709Record(bytes);
        expect('record' in read || typeof read.error === 'string').toBe(true);
      }
    }
    for (let length = 0; length < good.length; length += 1) {
      const bytes = Buffer.from(good.subarray(0, length));
      if (length >= 5) bytes.write(String(length + 1).padStart(5, '0'), 0, 'latin1');
      const read = readIso2709Record(bytes);
      if (length < base) expect(read).toHaveProperty('error');
      else expect('record' in read || typeof read.error === 'string').toBe(true);
    }
  });

  it('numbers the records of a file, a broken one reported in its place, a cut-off end last', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'iso2709-'));
    try {
      const file = path.join(dir, 'records.mrc');
      const record = (n: number) =>
        encode(
          new MarcRecord({
            leader: '00000nam a2200000 a 4500',
            fields: [
              { tag: '001', value: `r-${n}` },
              {
                tag: '245',
                ind1: '1',
                ind2: '0',
                subfields: [{ code: 'a', value: `Record ${n}` }],
              },
            ],
          }),
        );
      const broken = Buffer.from(record(2));
      broken.write('0x', 27, 'latin1');
      const end = Buffer.from([RECORD_TERMINATOR]);
      await writeFile(
        file,
        Buffer.concat([
          record(1),
          end,
          Buffer.from('\r\n'),
          broken,
          end,
          record(3),
          end,
          record(4),
        ]),
      );
      const rows = [];
      for await (const row of marcRecords(file)) rows.push(row);
      expect(rows.map((row) => [row.line, row.parsed.item?.title ?? row.parsed.error])).toEqual([
        [1, 'Record 1'],
        [2, expect.stringMatching(/^directory entry 1 \("001"\): its length or start/)],
        [3, 'Record 3'],
        [4, 'the file ends inside a record (no 0x1D)'],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
