import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { startJobQueue, type JobKind } from './queue.ts';

const silent = pino({ level: 'silent' });

/**
 * The database as the queue sees it. `onFetch` is called as a worker's fetch that follows a job's
 * insertion is issued; after `close()`, statements are recorded in `late`: each is one a closed
 * pool would have refused with an unhandled rejection ("Cannot use a pool after calling end on
 * the pool"), since pg-boss marks a job done or failed without awaiting the statement.
 */
function watchedHandle(handle: DatabaseHandle, onFetch: () => void) {
  const late: string[] = [];
  let closed = false;
  let sent = false;
  const watched: DatabaseHandle = {
    ...handle,
    executeSql: (text, values) => {
      if (closed) late.push(text);
      else if (text.includes('INSERT INTO pgboss.job')) sent = true;
      else if (sent && text.includes('SKIP LOCKED')) onFetch();
      return handle.executeSql(text, values);
    },
  };
  return {
    watched,
    late,
    close: () => {
      closed = true;
    },
  };
}

describe.each(testDatabaseKinds())('the job queue on %s', (kind) => {
  let handle: DatabaseHandle;

  beforeEach(async () => {
    handle = await openTestDatabase(kind);
  });

  afterEach(async () => {
    await handle.close();
  });

  it('issues no statement after stopping, even for a job fetched while it stopped', async () => {
    const name = `test-${crypto.randomUUID()}`;
    let runs = 0;
    const job: JobKind<{ n: number }> = {
      name,
      expireInSeconds: 60,
      retryLimit: 0,
      run: async () => {
        runs += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    };
    // The server closes while a worker's fetch is in flight (a send had just woken it): the job
    // it fetches runs, and is marked done, after pg-boss itself has stopped.
    let stopped: Promise<void> | undefined;
    const { watched, late, close } = watchedHandle(handle, () => {
      stopped ??= queue.stop().then(close);
    });
    const queue = startJobQueue(watched, [job as JobKind<object>], silent);
    await queue.send(job, { n: 1 });
    await vi.waitUntil(() => stopped !== undefined);
    await stopped;
    // Long enough for the fetched job to run and be marked done.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(late).toEqual([]);
    expect(runs).toBeGreaterThan(0);
  });

  it('fails a job that outruns the stop timeout for a retry, its late statements unsent', async () => {
    const { watched, late, close } = watchedHandle(handle, () => {});
    let started = false;
    let finished = false;
    const job: JobKind<{ n: number }> = {
      name: `test-${crypto.randomUUID()}`,
      expireInSeconds: 60,
      retryLimit: 1,
      // Ignores `stopping`, as a job stuck on a slow statement would.
      run: async () => {
        started = true;
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        finished = true;
      },
    };
    const queue = startJobQueue(watched, [job as JobKind<object>], silent, { stopTimeoutMs: 200 });
    const id = await queue.send(job, { n: 1 });
    await vi.waitUntil(() => started, { timeout: 5_000 });
    await queue.stop();
    close();
    expect(finished).toBe(false);
    await vi.waitUntil(() => finished, { timeout: 5_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(late).toEqual([]);
    const { rows } = await handle.executeSql('SELECT state FROM pgboss.job WHERE id = $1', [id]);
    expect(rows).toEqual([{ state: 'retry' }]);
  });
});
