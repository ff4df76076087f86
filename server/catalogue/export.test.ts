import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import {
  catalogueCsvHeader,
  catalogueCsvLines,
  catalogueMarcXml,
  MARCXML_CLOSE,
  MARCXML_OPEN,
} from '../presenters/catalogue-export.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { exportCatalogue } from './export.ts';
import { importMarc } from './import/marc.ts';

const FIXTURE = path.join(import.meta.dirname, 'import', 'fixtures', 'marc-sample.xml');
const ALL = { q: '' } as const;

/** The catalogue as the round trip must keep it, ids aside. */
async function catalogue(db: DatabaseHandle['db']) {
  const items = await db
    .selectFrom('items')
    .select(['id', 'title', 'authors', 'isbn', 'year', 'subjects', 'description'])
    .orderBy('title')
    .execute();
  const copies = await db
    .selectFrom('copies')
    .select(['item_id', 'barcode', 'location', 'status'])
    .orderBy('barcode')
    .execute();
  return items.map(({ id, ...item }) => ({
    ...item,
    copies: copies.filter((copy) => copy.item_id === id).map(({ item_id: _, ...copy }) => copy),
  }));
}

async function exportText(
  db: DatabaseHandle['db'],
  format: 'xml' | 'csv',
  batchSize?: number,
): Promise<string> {
  let text = format === 'xml' ? MARCXML_OPEN : catalogueCsvHeader();
  for await (const batch of exportCatalogue(db, ALL, batchSize)) {
    text += format === 'xml' ? catalogueMarcXml(batch) : catalogueCsvLines(batch);
  }
  return format === 'xml' ? text + MARCXML_CLOSE : text;
}

describe.each(testDatabaseKinds())('exporting the catalogue on %s', (kind) => {
  const handles: DatabaseHandle[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('round-trips: MARCXML exported, imported into an empty catalogue, leaves it unchanged', async () => {
    const source = await openTestDatabase(kind);
    handles.push(source);
    await importMarc(source.db, FIXTURE);
    const before = await catalogue(source.db);
    expect(before).toHaveLength(4);
    expect(before.flatMap((item) => item.copies)).toHaveLength(5);

    dir = await mkdtemp(path.join(tmpdir(), 'export-'));
    const file = path.join(dir, 'catalogue.xml');
    // Batches of two: the export reads several statements' worth, as a large catalogue does.
    await writeFile(file, await exportText(source.db, 'xml', 2));

    const target = await openTestDatabase(kind);
    handles.push(target);
    const result = await importMarc(target.db, file);
    expect(result.counts).toMatchObject({ rows: 4, inserted: 4, skipped: 0 });
    expect(await catalogue(target.db)).toEqual(before);
  });

  it('writes CSV with quoted fields and copies, neutralising formula-like text', async () => {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    await importMarc(handle.db, FIXTURE);
    const lines = (await exportText(handle.db, 'csv')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,type,title,authors,year,isbn,subjects,description,copies');
    expect(lines).toHaveLength(5);
    const cafe = lines.find((line) => line.includes('Le café des étoiles'));
    expect(cafe).toContain('"Ada Quill; Tobias Marrow","2019","9780306406157","Astronomy; Cafés"');
    expect(cafe).toContain(
      '"MX0001 | MAIN, QB 43 .Q5 | available; MX0002 | MAIN, QB 43 .Q5 | missing"',
    );
    expect(catalogueCsvLines([{ ...emptyItem, title: '=HYPERLINK("x")' }])).toContain(
      `"'=HYPERLINK(""x"")"`,
    );
  });
});

const emptyItem = {
  id: '00000000-0000-0000-0000-000000000000',
  kind: 'book' as const,
  title: '',
  authors: [],
  year: null,
  subjects: [],
  description: null,
  isbn: null,
  language: null,
  copies: [],
};
