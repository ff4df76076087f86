import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UPLOAD_EMPTY_MESSAGE,
  UPLOAD_MAX_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
  type CatalogueImport,
} from '#contract/http/imports.ts';
import { RowCounter, UPLOAD_CHUNK_BYTES } from '../../catalogue/import/uploads.ts';
import { sweep } from '../../sweeper.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'catalogue', 'import', 'fixtures');
const OCTETS = { 'content-type': 'application/octet-stream' };

/** Uploads `file`'s bytes as a librarian's browser does. */
function upload(client: TestClient, kind: string, name: string, body: Buffer | string) {
  return client.post(`/api/imports?kind=${kind}&name=${encodeURIComponent(name)}`, body, OCTETS);
}

/** Follows an import until it has finished, as the catalogue screen does. */
async function finished(client: TestClient, id: string): Promise<CatalogueImport> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await client.get(`/api/imports/${id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json<CatalogueImport>();
    if (body.state === 'done' || body.state === 'failed') return body;
    if (Date.now() > deadline) throw new Error(`import ${id} still ${body.state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('counting rows as a file arrives', () => {
  it('counts ISO 2709 records, MARCXML records (prefixed or not) and CSV lines, across pieces', async () => {
    const mrc = await readFile(path.join(FIXTURES, 'marc-sample.mrc'));
    const xml = await readFile(path.join(FIXTURES, 'marc-sample.xml'));
    const records = mrc.filter((byte) => byte === 0x1d).length;
    for (const size of [1, 7, 1000]) {
      const binary = new RowCounter('marc');
      for (let at = 0; at < mrc.length; at += size) binary.push(mrc.subarray(at, at + size));
      expect(binary.rows).toBe(records);
      const marcxml = new RowCounter('marc');
      for (let at = 0; at < xml.length; at += size) marcxml.push(xml.subarray(at, at + size));
      expect(marcxml.rows).toBe(6);
    }
    const prefixed = new RowCounter('marc');
    prefixed.push(Buffer.from('\uFEFF <marc:collection><marc:record>a</marc:record><marc:record '));
    prefixed.push(Buffer.from('type="Bibliographic"></marc:record></marc:collection>'));
    expect(prefixed.rows).toBe(2);
    const csv = new RowCounter('holdings');
    csv.push(Buffer.from('isbn,barcode,location\n1,A,x\n2,B,'));
    csv.push(Buffer.from('y\n'));
    expect(csv.rows).toBe(2);
  });
});

describe.each(testDatabaseKinds())('imports uploaded on the catalogue screen on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());

  it('imports a MARCXML upload off the request path, then a holdings CSV, with reports', async () => {
    const xml = await readFile(path.join(FIXTURES, 'marc-sample.xml'));
    const response = await upload(librarian.client, 'marc', 'marc-sample.xml', xml);
    expect(response.statusCode).toBe(201);
    const queued = response.json<CatalogueImport>();
    expect(queued).toMatchObject({
      kind: 'marc',
      fileName: 'marc-sample.xml',
      sizeBytes: xml.length,
      rowsExpected: 6,
      report: null,
      error: null,
    });
    // Answered as soon as the file is in: the import runs afterwards, in the job queue.
    expect(['queued', 'running']).toContain(queued.state);
    expect(queued.createdByName).not.toBe('');

    const done = await finished(librarian.client, queued.id);
    expect(done.state).toBe('done');
    expect(done.rowsRead).toBe(6);
    expect(done.report?.counts).toEqual({
      rows: 6,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      skipped: 2,
    });
    expect(done.report?.copies).toEqual({ inserted: 5, updated: 0, unchanged: 0 });
    expect(done.report?.badRows.map((row) => row.line)).toEqual([4, 5]);
    expect(done.report?.moreBadRows).toBe(0);
    expect(done.finishedAt).not.toBeNull();
    // The file's pieces go once it is imported.
    const chunks = await testApp.database.db
      .selectFrom('catalogue_import_chunks')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(chunks.n)).toBe(0);

    const found = await librarian.client.get('/api/search?q=caf%C3%A9%20des%20%C3%A9toiles');
    expect(found.json().items[0].title).toBe('Le café des étoiles: roman');

    const csv =
      'isbn,barcode,location,status\n0-14-143951-3,UP0001,Main,\n9780000000002,UP0002,Main,\n';
    const holdings = await upload(librarian.client, 'holdings', 'copies.csv', csv);
    expect(holdings.statusCode).toBe(201);
    expect(holdings.json().rowsExpected).toBe(2);
    const attached = await finished(librarian.client, holdings.json().id);
    expect(attached.report?.counts).toMatchObject({ rows: 2, inserted: 1, skipped: 1 });
    expect(attached.report?.badRows[0]?.line).toBe(3);

    const list = await librarian.client.get('/api/imports');
    expect(list.json().imports.map((each: CatalogueImport) => each.fileName)).toEqual([
      'copies.csv',
      'marc-sample.xml',
    ]);
  });

  it('keeps a file of many pieces whole, and reports a file that is not MARC as failed rows', async () => {
    const mrc = await readFile(path.join(FIXTURES, 'marc-sample.mrc'));
    // Padding after the last record makes the upload span several stored pieces.
    const padded = Buffer.concat([mrc, Buffer.alloc(UPLOAD_CHUNK_BYTES * 2 + 10, 0x20)]);
    const response = await upload(librarian.client, 'marc', 'big.mrc', padded);
    expect(response.statusCode).toBe(201);
    const done = await finished(librarian.client, response.json().id);
    expect(done.state).toBe('done');
    expect(done.sizeBytes).toBe(padded.length);
    expect(done.report!.counts.updated + done.report!.counts.unchanged).toBeGreaterThan(0);

    const csvAsMarc = await upload(librarian.client, 'marc', 'oops.csv', 'isbn,barcode\n1,2\n');
    const failed = await finished(librarian.client, csvAsMarc.json().id);
    expect(failed.report?.counts.inserted ?? 0).toBe(0);
    expect(failed.state === 'failed' || failed.report!.counts.skipped > 0).toBe(true);
    if (failed.state === 'failed') expect(failed.error).not.toContain('digi-library-import');
  });

  it('refuses empty, oversized, mislabelled and unnamed uploads with a sentence', async () => {
    const empty = await upload(librarian.client, 'marc', 'empty.mrc', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(UPLOAD_EMPTY_MESSAGE);

    const announced = await librarian.client.post('/api/imports?kind=marc&name=huge.mrc', 'x', {
      ...OCTETS,
      'content-length': String(UPLOAD_MAX_BYTES + 1),
    });
    expect(announced.statusCode).toBe(413);
    expect(announced.json().message).toBe(UPLOAD_TOO_LARGE_MESSAGE);

    const json = await librarian.client.post('/api/imports?kind=marc&name=a.mrc', { a: 1 });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toBe('Send the file as application/octet-stream.');

    const noKind = await librarian.client.post('/api/imports?name=a.mrc', 'data', OCTETS);
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().errors[0].path).toBe('kind');

    const unknown = await librarian.client.get('/api/imports/00000000-0000-0000-0000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const notAnId = await librarian.client.get('/api/imports/last');
    expect(notAnId.statusCode).toBe(404);

    const leftovers = await testApp.database.db
      .selectFrom('catalogue_imports')
      .select('file_name')
      .where('file_name', 'in', ['empty.mrc', 'huge.mrc'])
      .execute();
    expect(leftovers).toEqual([]);
  });

  it('forgets an upload cut off midway after an hour', async () => {
    const db = testApp.database.db;
    const { id } = await db
      .insertInto('catalogue_imports')
      .values({ kind: 'marc', file_name: 'cut-off.mrc', size_bytes: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('catalogue_import_chunks')
      .values({ import_id: id, seq: 0, data: Buffer.from('abc') })
      .execute();
    expect((await librarian.client.get(`/api/imports/${id}`)).statusCode).toBe(404);
    await sweep(testApp.database, new Date(Date.now() + 30 * 60_000));
    expect(await db.selectFrom('catalogue_imports').where('id', '=', id).execute()).toHaveLength(1);
    await sweep(testApp.database, new Date(Date.now() + 61 * 60_000));
    expect(await db.selectFrom('catalogue_imports').where('id', '=', id).execute()).toHaveLength(0);
    expect(
      await db.selectFrom('catalogue_import_chunks').where('import_id', '=', id).execute(),
    ).toHaveLength(0);
  });

  it('is for librarians only', async () => {
    const student = await signedInPerson(testApp, 'student');
    const faculty = await signedInPerson(testApp, 'faculty');
    for (const person of [student, faculty]) {
      expect((await upload(person.client, 'marc', 'a.mrc', 'x')).statusCode).toBe(403);
      expect((await person.client.get('/api/imports')).statusCode).toBe(403);
    }
    const guest = new TestClient(testApp.app, testApp.config.publicUrl);
    expect((await upload(guest, 'marc', 'a.mrc', 'x')).statusCode).toBe(401);
  });
});
