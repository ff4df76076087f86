import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importMarc } from '../../catalogue/import/marc.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';

const FIXTURE = path.join(
  import.meta.dirname,
  '..',
  '..',
  'catalogue',
  'import',
  'fixtures',
  'marc-sample.xml',
);

describe.each(testDatabaseKinds())('catalogue exports on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await importMarc(testApp.database.db, FIXTURE);
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());

  it('streams the whole catalogue as MARCXML, a record per item with its copies', async () => {
    const response = await librarian.client.get('/api/export/catalogue.xml');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/marcxml\+xml/);
    expect(response.headers['content-disposition']).toContain('catalogue.xml');
    expect(response.body).toMatch(
      /^<\?xml[^>]*>\n<collection xmlns="http:\/\/www.loc.gov\/MARC21\/slim">/,
    );
    expect(response.body.match(/<record /g)).toHaveLength(4);
    expect(response.body).toContain('<subfield code="a">東京の図書館</subfield>');
    expect(response.body).toContain('<subfield code="p">MX0005</subfield>');
    expect(response.body.trimEnd().endsWith('</collection>')).toBe(true);
  });

  it('exports the current search as CSV: the same filters as GET /api/search', async () => {
    const all = await librarian.client.get('/api/export/catalogue.csv');
    expect(all.headers['content-type']).toMatch(/^text\/csv/);
    expect(all.body.trimEnd().split('\r\n')).toHaveLength(5);
    const byAuthor = await librarian.client.get('/api/export/catalogue.csv?author=quill');
    const lines = byAuthor.body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('Le café des étoiles: roman');
    const byIsbn = await librarian.client.get('/api/export/catalogue.csv?q=0-14-143951-3');
    expect(byIsbn.body).toContain('Pride & prejudice');
    expect(byIsbn.body.trimEnd().split('\r\n')).toHaveLength(2);
  });

  it('refuses a bad filter with a sentence, never a 500', async () => {
    const response = await librarian.client.get('/api/export/catalogue.csv?year=soon');
    expect(response.statusCode).toBe(400);
  });
});
