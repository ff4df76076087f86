import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { MessageType } from 'socket.io-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '#server/db/client.ts';
import { prepareVectorSearch } from '#server/db/vector.ts';
import { EMBED_ITEMS_JOB } from '#server/embeddings/embed-items.ts';
import { JOB_SCHEMA, startJobQueue } from '#server/jobs/queue.ts';
import { CLUSTER_CHANNEL_PREFIX, EMITTER_UID } from '#server/realtime/emitter.ts';
import { COMMITTED_BETWEEN_PROCESSES } from '#server/realtime/chat/items.ts';
import { createPostgresDatabase, testDatabaseKinds } from '#server/test/databases.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(ROOT, 'server', 'catalogue', 'import', 'fixtures');

/** `npm run import`'s command line from package.json (`node …`), run without npm around it. */
const NPM_IMPORT = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { import: string };
  }
).scripts.import
  .trim()
  .split(/\s+/)
  .slice(1);

/** The line an import that added items prints when the server is to embed them at its start. */
const AT_NEXT_START = 'Search by meaning: the server embeds the new items when it next starts.';

function importCommand(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, [...NPM_IMPORT, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
}

describe('npm run import', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-import-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('imports a file, lists bad rows by line on stderr and prints a summary', () => {
    const books = path.join(FIXTURES, 'goodbooks-sample.csv');
    const first = importCommand(['books', books], { DATA_DIR: dataDir });
    expect(first.stderr).toContain(
      'goodbooks-sample.csv, line 7: the ISBN "12-AB" is not an ISBN-10 (skipped)',
    );
    expect(first.stderr).toContain('goodbooks-sample.csv, line 8: has 9 fields');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^Imported books from goodbooks-sample\.csv in \d+\.\d s$/m);
    expect(first.stdout).toMatch(/rows read +9$/m);
    expect(first.stdout).toMatch(/inserted +5$/m);
    expect(first.stdout).toMatch(/skipped \(bad\) +4$/m);
    // PGlite's folder is the import's alone: the server embeds the books when it starts.
    expect(first.stdout).toContain(AT_NEXT_START);

    const second = importCommand(['books', books], { DATA_DIR: dataDir });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/inserted +0$/m);
    expect(second.stdout).toMatch(/unchanged +5$/m);
    // Nothing new, nothing to embed.
    expect(second.stdout).not.toContain('Search by meaning');
  });

  it('takes several files of one kind, and says how many pages a text made', () => {
    const result = importCommand(
      ['papers', path.join(FIXTURES, 'arxiv-sample.csv'), path.join(FIXTURES, 'arxiv-sample.json')],
      { DATA_DIR: dataDir },
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Imported papers from arxiv-sample.csv');
    expect(result.stdout).toContain('Imported papers from arxiv-sample.json');

    // With search by meaning turned off, nothing is said of it.
    const text = importCommand(['text', path.join(FIXTURES, 'gutenberg-sample.txt')], {
      DATA_DIR: dataDir,
      SEMANTIC_SEARCH: 'false',
    });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/pages +1$/m);
    expect(text.stdout).toMatch(/inserted +1$/m);
    expect(text.stdout).not.toContain('Search by meaning');
  });

  it('imports MARC records, numbering bad ones by record, then a holdings CSV', () => {
    const marc = importCommand(['marc', path.join(FIXTURES, 'marc-sample.mrc')], {
      DATA_DIR: dataDir,
    });
    expect(marc.status).toBe(0);
    expect(marc.stderr).toContain(
      'marc-sample.mrc, record 2: the leader says 78 bytes, the record has 68 (skipped)',
    );
    expect(marc.stdout).toMatch(/copies added +4$/m);
    const holdings = path.join(dataDir, 'holdings.csv');
    writeFileSync(
      holdings,
      'isbn,barcode,location\n9780306406157,MB0009,Annexe\n9780000000000,MB0010,x\n',
    );
    const attached = importCommand(['holdings', holdings], { DATA_DIR: dataDir });
    expect(attached.status).toBe(0);
    expect(attached.stdout).toMatch(/inserted +1$/m);
    expect(attached.stderr).toContain('holdings.csv, line 3:');
    // A copy changes no item's text.
    expect(attached.stdout).not.toContain('Search by meaning');
  });

  it('fails with a clear message on an unknown kind, a missing file or no file', () => {
    const unknown = importCommand(['films', 'x.csv'], { DATA_DIR: dataDir });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain(
      'Unknown kind "films": use one of books, papers, courses, text, marc, holdings.',
    );
    expect(unknown.stderr).toContain(
      'Usage: npm run import -- <books|papers|courses|text|marc|holdings> <file>',
    );

    const missing = importCommand(['books', path.join(dataDir, 'nope.csv')], { DATA_DIR: dataDir });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain(`No such file: ${path.join(dataDir, 'nope.csv')}`);

    const none = importCommand(['books'], { DATA_DIR: dataDir });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('Give the file to import.');
  });

  it('fails on a file of another kind and on bad configuration', () => {
    const wrong = importCommand(['books', path.join(FIXTURES, 'courses-sample.csv')], {
      DATA_DIR: dataDir,
    });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/does not look like the expected CSV: its header lacks/);

    const config = importCommand(['books', path.join(FIXTURES, 'goodbooks-sample.csv')], {
      DATA_DIR: dataDir,
      DATABASE_URL: 'mysql://nope',
    });
    expect(config.status).toBe(1);
    expect(config.stderr).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
  });
});

describe.skipIf(!testDatabaseKinds().includes('postgres'))(
  'npm run import beside a server on PostgreSQL',
  () => {
    const papers = path.join(FIXTURES, 'arxiv-sample.csv');

    it('queues the embedding of the new items for the server, once a server has started', async () => {
      const url = await createPostgresDatabase();
      const handle = openPostgres(url);
      try {
        await prepareVectorSearch(handle);
        const meaning = handle.searchByMeaning.available;
        const embeddingJobs = async () =>
          (
            await handle.executeSql(
              `SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.job WHERE name = $1`,
              [EMBED_ITEMS_JOB.name],
            )
          ).rows;
        const env = { DATABASE_URL: url, DATA_DIR: path.join(tmpdir(), 'unused') };

        // No server has started on this database: its queues do not exist yet, and the first
        // server to start queues the embedding itself.
        const before = importCommand(['papers', papers], env);
        expect(before.status).toBe(0);
        if (meaning) expect(before.stdout).toContain(AT_NEXT_START);
        else expect(before.stdout).not.toContain('Search by meaning');
        expect(await embeddingJobs()).toEqual([{ n: 0 }]);

        // A server's start creates its queues (this one runs none of the jobs, and stops).
        const log = pino({ level: 'silent' });
        await startJobQueue(handle, [{ ...EMBED_ITEMS_JOB, run: async () => {} }], log).stop();
        const courses = path.join(FIXTURES, 'courses-sample.csv');
        const beside = importCommand(['courses', courses], env);
        expect(beside.status).toBe(0);
        if (meaning) {
          expect(beside.stdout).toContain(
            'Search by meaning: the embedding of the new items is queued for the server.',
          );
        }
        expect(await embeddingJobs()).toEqual([{ n: meaning ? 1 : 0 }]);

        // With search by meaning turned off, nothing is queued nor said.
        const off = importCommand(['papers', path.join(FIXTURES, 'arxiv-sample.json')], {
          ...env,
          SEMANTIC_SEARCH: 'false',
        });
        expect(off.status).toBe(0);
        expect(off.stdout).toMatch(/inserted +[1-9]/m);
        expect(off.stdout).not.toContain('Search by meaning');
        expect(await embeddingJobs()).toEqual([{ n: meaning ? 1 : 0 }]);
      } finally {
        await handle.close();
      }
    });

    it('tells the running servers which items its copies changed, as the Socket.IO adapter hears', async () => {
      const url = await createPostgresDatabase();
      // Where a server's adapter LISTENs (server/realtime/adapter.ts).
      const listener = new pg.Client({ connectionString: url });
      await listener.connect();
      const heard: string[] = [];
      listener.on('notification', (message) => heard.push(message.payload ?? ''));
      try {
        await listener.query(`LISTEN "${CLUSTER_CHANNEL_PREFIX}#/"`);
        const marc = importCommand(['marc', path.join(FIXTURES, 'marc-sample.mrc')], {
          DATABASE_URL: url,
          DATA_DIR: path.join(tmpdir(), 'unused'),
          SEMANTIC_SEARCH: 'false',
        });
        expect(marc.status, marc.stderr).toBe(0);
        expect(marc.stdout).toMatch(/copies added +4$/m);
        // The CLI waited for its NOTIFYs; the listener reads them once this process is free.
        const deadline = Date.now() + 5_000;
        while (heard.length === 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const messages = heard.map((payload) => JSON.parse(payload));
        expect(messages.length).toBeGreaterThan(0);
        const items = new Set<string>();
        for (const message of messages) {
          expect(message).toMatchObject({
            uid: EMITTER_UID,
            nsp: '/',
            type: MessageType.SERVER_SIDE_EMIT,
          });
          expect(message.data.packet[0]).toBe(COMMITTED_BETWEEN_PROCESSES);
          for (const id of message.data.packet[1]) items.add(id);
        }
        expect(marc.stdout).toContain(
          `Live availability: the running servers were told of ${items.size} item`,
        );
      } finally {
        await listener.end();
      }
    });
  },
);
