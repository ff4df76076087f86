import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { importHoldings } from './holdings.ts';
import { importMarc, MARC_SOURCE, marcRecords, personalName, trimIsbd } from './marc.ts';
import type { BadRow, ImportFileProgress } from './writer.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const XML = path.join(FIXTURES, 'marc-sample.xml');
const MRC = path.join(FIXTURES, 'marc-sample.mrc');

describe('MARC fields', () => {
  it('trims ISBD punctuation and turns inverted headings round', () => {
    expect(trimIsbd('Le café des étoiles :')).toBe('Le café des étoiles');
    expect(trimIsbd('roman /')).toBe('roman');
    expect(
      personalName({ tag: '100', ind1: '1', subfields: [{ code: 'a', value: 'Austen, Jane.' }] }),
    ).toBe('Jane Austen');
    expect(
      personalName({
        tag: '100',
        ind1: '1',
        subfields: [{ code: 'a', value: 'Tolkien, J. R. R.' }],
      }),
    ).toBe('J. R. R. Tolkien');
    expect(
      personalName({ tag: '700', ind1: '0', subfields: [{ code: 'a', value: 'Li, Ming' }] }),
    ).toBe('Li, Ming');
  });
});

describe('MARC files', () => {
  it('reads MARCXML with a namespace prefix, records cut across reads', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'marc-prefix-'));
    try {
      const file = path.join(dir, 'prefixed.xml');
      const record = (n: number) =>
        `<marc:record><marc:controlfield tag="001">p-${n}</marc:controlfield>` +
        `<marc:datafield tag="245" ind1="0" ind2="0"><marc:subfield code="a">Übung ${n} ${'é'.repeat(n % 7)}</marc:subfield></marc:datafield></marc:record>\n`;
      await writeFile(
        file,
        `<?xml version="1.0"?>\n<marc:collection xmlns:marc="http://www.loc.gov/MARC21/slim">\n${Array.from({ length: 3000 }, (_, n) => record(n)).join('')}</marc:collection>\n`,
      );
      const rows = [];
      for await (const row of marcRecords(file)) rows.push(row);
      expect(rows).toHaveLength(3000);
      expect(rows.every((row) => row.parsed.error === undefined)).toBe(true);
      expect(rows[2999]?.parsed.item?.title).toBe(`Übung 2999 ${'é'.repeat(2999 % 7)}`);
      expect(rows[2999]?.line).toBe(3000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(testDatabaseKinds())('importing MARC on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const copiesOf = (db: DatabaseHandle['db'], title: string) =>
    db
      .selectFrom('copies')
      .innerJoin('items', 'items.id', 'copies.item_id')
      .select(['barcode', 'location', 'status', 'note'])
      .where('items.title', '=', title)
      .orderBy('barcode')
      .execute();

  it('reads MARCXML: fields mapped, 952 and 852 holdings as copies, bad records skipped by position', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    const result = await importMarc(handle.db, XML, { onBadRow: (row) => bad.push(row) });
    expect(result.counts).toEqual({ rows: 6, inserted: 4, updated: 0, unchanged: 0, skipped: 2 });
    expect(result.copies).toEqual({ inserted: 5, updated: 0, unchanged: 0 });
    expect(bad.map((row) => row.line)).toEqual([4, 5]);
    expect(bad[0]?.reason).toBe('no title (245 $a)');
    expect(bad[1]?.reason).toMatch(/^not a MARCXML record/);

    const cafe = await handle.db
      .selectFrom('items')
      .selectAll()
      .where('source', '=', MARC_SOURCE)
      .where('source_id', '=', 'ml-0001')
      .executeTakeFirstOrThrow();
    expect(cafe).toMatchObject({
      kind: 'book',
      title: 'Le café des étoiles: roman',
      authors: ['Ada Quill', 'Tobias Marrow'],
      year: 2019,
      isbn: '9780306406157',
      subjects: ['Astronomy', 'Cafés'],
      description:
        'A night-shift waiter maps the sky from a harbour café.\n\nEdition: 2e éd.\n\nPublisher: Éditions du Port',
      // The missing copy is counted, but cannot be reserved.
      copies: 2,
      copies_unavailable: 1,
    });
    expect(await copiesOf(handle.db, 'Le café des étoiles: roman')).toEqual([
      { barcode: 'MX0001', location: 'MAIN, QB 43 .Q5', status: 'available', note: '' },
      { barcode: 'MX0002', location: 'MAIN, QB 43 .Q5', status: 'missing', note: '' },
    ]);
    expect(await copiesOf(handle.db, 'Die Straße nach Süden')).toEqual([
      { barcode: 'MX0003', location: 'West wing, PT 2603 .V6 S7', status: 'available', note: '' },
    ]);
    const tokyo = await handle.db
      .selectFrom('items')
      .select(['isbn', 'source_id', 'year'])
      .where('title', '=', '東京の図書館')
      .executeTakeFirstOrThrow();
    // An invalid ISBN names no book: the book stays, found again by its control number.
    expect(tokyo).toEqual({ isbn: null, source_id: 'ml-0003', year: 2021 });
    expect(await copiesOf(handle.db, '東京の図書館')).toEqual([
      {
        barcode: 'MX0004',
        location: 'EAST, Z 675 .J3',
        status: 'in_repair',
        note: 'Not for loan (1)',
      },
      { barcode: 'MX0005', location: 'EAST', status: 'on_loan', note: '' },
    ]);
    const austen = await handle.db
      .selectFrom('items')
      .select(['title', 'authors', 'year'])
      .where('isbn', '=', '9780141439518')
      .executeTakeFirstOrThrow();
    expect(austen).toEqual({ title: 'Pride & prejudice', authors: ['Jane Austen'], year: 1813 });
  });

  it('reads ISO 2709: non-ASCII titles, a record whose leader lies reported and skipped', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    const progress: [number, ImportFileProgress | undefined][] = [];
    const result = await importMarc(handle.db, MRC, {
      onBadRow: (row) => bad.push(row),
      onProgress: (counts, file) => progress.push([counts.rows, file]),
    });
    expect(result.counts).toMatchObject({ rows: 4, inserted: 3, skipped: 1 });
    expect(bad).toEqual([{ line: 2, reason: 'the leader says 78 bytes, the record has 68' }]);
    const { size } = await stat(MRC);
    expect(progress.at(-1)).toEqual([4, { bytesRead: size, totalBytes: size }]);
    const titles = await handle.db
      .selectFrom('items')
      .select(['title', 'authors', 'year'])
      .where('source', '=', MARC_SOURCE)
      .orderBy('source_id')
      .execute();
    expect(titles).toEqual([
      { title: 'Ein Maß für Straßen: Notizen', authors: ['Ada Quill'], year: 2003 },
      { title: '北京の本屋', authors: ['李明'], year: 1999 },
      { title: 'Crème brûlée for beginners', authors: [], year: null },
    ]);
    expect(await copiesOf(handle.db, 'Ein Maß für Straßen: Notizen')).toEqual([
      { barcode: 'MB0001', location: 'MAIN, HE 336 .Q5', status: 'available', note: '' },
      { barcode: 'MB0002', location: 'MAIN, HE 336 .Q5', status: 'withdrawn', note: '' },
    ]);
    expect(await copiesOf(handle.db, 'Crème brûlée for beginners')).toEqual([
      { barcode: 'MB0004', location: 'WEST', status: 'in_repair', note: 'Damaged' },
    ]);
  });

  it('re-imports without duplicating: same file unchanged, a changed file updates items and copies', async () => {
    handle = await openTestDatabase(kind);
    await importMarc(handle.db, XML);
    const again = await importMarc(handle.db, XML);
    expect(again.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
    expect(again.copies).toEqual({ inserted: 0, updated: 0, unchanged: 5 });

    dir = await mkdtemp(path.join(tmpdir(), 'marc-'));
    const changed = path.join(dir, 'changed.xml');
    const text = (await readFile(XML, 'utf8'))
      .replace('Die Straße nach Süden /', 'Die Straße nach Süden (Neuausgabe) /')
      .replace('<subfield code="b">West wing</subfield>', '<subfield code="b">East wing</subfield>')
      .replace('<subfield code="1">1</subfield>', '<subfield code="1">0</subfield>');
    await writeFile(changed, text);
    const third = await importMarc(handle.db, changed);
    expect(third.counts).toMatchObject({ inserted: 0, updated: 1, unchanged: 3 });
    expect(third.copies).toEqual({ inserted: 0, updated: 2, unchanged: 3 });
    const { count } = await handle.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(4);
    expect(await copiesOf(handle.db, 'Die Straße nach Süden (Neuausgabe)')).toEqual([
      { barcode: 'MX0003', location: 'East wing, PT 2603 .V6 S7', status: 'available', note: '' },
    ]);
    expect((await copiesOf(handle.db, 'Le café des étoiles: roman'))[1]?.status).toBe('available');
  });

  it('attaches a holdings CSV to items by ISBN or id, reporting unknown ones by line', async () => {
    handle = await openTestDatabase(kind);
    await importMarc(handle.db, XML);
    const straße = await handle.db
      .selectFrom('items')
      .select('id')
      .where('source_id', '=', 'ml-0002')
      .executeTakeFirstOrThrow();
    dir = await mkdtemp(path.join(tmpdir(), 'holdings-'));
    const file = path.join(dir, 'holdings.csv');
    await writeFile(
      file,
      [
        'isbn,item_id,barcode,location,status',
        '0-14-143951-3,,HX0001,"Main, PR 4034",',
        `,${straße.id},HX0002,Stacks,On loan`,
        '9780000000002,,HX0003,Stacks,',
        '978-0-14-143951-8,,MX0001,Basement,in repair',
        `,00000000-0000-0000-0000-000000000000,HX0004,Stacks,`,
        '9780141439518,,HX0005,Stacks,lent out',
        '9780141439518,,bad barcode,Stacks,',
      ].join('\n'),
    );
    const bad: BadRow[] = [];
    const result = await importHoldings(handle.db, file, { onBadRow: (row) => bad.push(row) });
    expect(result.counts).toEqual({ rows: 7, inserted: 2, updated: 1, unchanged: 0, skipped: 4 });
    expect(bad.map((row) => row.line)).toEqual([4, 6, 7, 8]);
    expect(bad[0]?.reason).toMatch(/not an ISBN|no item has the ISBN/);
    expect(bad[1]?.reason).toBe('no item has the id 00000000-0000-0000-0000-000000000000');
    expect(bad[2]?.reason).toMatch(/the status "lent out" is not one of/);
    expect(await copiesOf(handle.db, 'Pride & prejudice')).toEqual([
      { barcode: 'HX0001', location: 'Main, PR 4034', status: 'available', note: '' },
      // A barcode already on a copy moves that copy; it is never a second one.
      { barcode: 'MX0001', location: 'Basement', status: 'in_repair', note: '' },
    ]);
    expect((await copiesOf(handle.db, 'Die Straße nach Süden')).map((c) => c.status)).toEqual([
      'on_loan',
      'available',
    ]);
    const again = await importHoldings(handle.db, file);
    expect(again.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, skipped: 4 });
  });
});
