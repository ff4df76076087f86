import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle } from '../db/client.ts';

/** The schema pg-boss keeps its tables in, beside ours in the same database. */
export const JOB_SCHEMA = 'pgboss';

/**
 * pg-boss's options on one of our databases: its statements go through the handle (on PGlite,
 * in turn with Kysely's; on PostgreSQL through the app's pool), never a pool of its own.
 * Cron schedules are off: nothing here uses them, and they poll the clock.
 */
function bossOptions(handle: DatabaseHandle, extra: PgBoss.ConstructorOptions = {}) {
  return {
    db: { executeSql: (text: string, values: unknown[]) => handle.executeSql(text, values) },
    schema: JOB_SCHEMA,
    schedule: false,
    ...extra,
  } satisfies PgBoss.ConstructorOptions;
}

/**
 * Creates pg-boss's tables, or brings them to the installed pg-boss's version, with its own
 * migrations (they are its code, versioned with the package; decision 028). Run by `migrate`,
 * after ours, so a server starts on a database whose queue is ready, and tests copy it ready.
 */
export async function prepareJobQueue(handle: DatabaseHandle): Promise<void> {
  const boss = new PgBoss(bossOptions(handle, { migrate: true, supervise: false }));
  await boss.start();
  await boss.stop({ graceful: false, wait: true, close: false });
}

/** A kind of job: its queue name, how a job of it is retried and expires, and what it carries. */
export interface JobSpec<Data extends object> {
  name: string;
  /** Seconds a job may run before pg-boss counts it failed (and retries it, if any are left). */
  expireInSeconds: number;
  retryLimit: number;
  /**
   * pg-boss's queue policy; 'standard' unless given. 'stately': at most one job of the kind (per
   * singleton key) waiting and one running at a time across every process sharing the database,
   * further sends queueing nothing while one waits. Set when the queue is first created.
   */
  policy?: 'standard' | 'stately';
  /** Never set: it carries `Data`'s type, so `send` takes only that kind's data. */
  readonly data?: Data;
}

/** A kind of job this server runs, with what runs it. */
export interface JobKind<Data extends object> extends JobSpec<Data> {
  /** Does the work; throwing fails the job. `stopping` turns true when the server is closing. */
  run(data: Data, stopping: () => boolean): Promise<void>;
}

/** How one job is queued, beyond its kind's defaults. */
export interface SendOptions {
  /**
   * With `singletonSeconds`: at most one job of this kind and key per window of that many seconds
   * (by the database's clock), whichever process sends it; the others' sends queue nothing.
   */
  singletonKey?: string;
  singletonSeconds?: number;
}

/** The server's job queue: send work to it, and it runs it off the request path. */
export interface JobQueue {
  /**
   * Queues a job of `kind` and wakes this process's worker for it; answers the job's id, or null
   * when a singleton (`options`) of its window was already queued.
   */
  send<Data extends object>(
    kind: JobSpec<Data>,
    data: Data,
    options?: SendOptions,
  ): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * Thrown by {@link openJobSender}'s `send` when the kind's queue does not exist: the server
 * creates its queues when it starts (`startJobQueue`), so no server has started on this
 * database yet.
 */
export class JobQueueMissingError extends Error {}

/**
 * A queue that only sends, for a command-line tool beside a server (`npm run import`): it runs
 * nothing and wakes no worker, so a server sharing the database runs the job (its workers poll
 * every few seconds). It does not create the kind's queue, whose policy is the server's to set;
 * `send` throws {@link JobQueueMissingError} where there is none yet. `stop` before closing the
 * database.
 */
export function openJobSender(handle: DatabaseHandle): JobQueue {
  const boss = new PgBoss(bossOptions(handle, { migrate: false, supervise: false }));
  const ready = boss.start();
  // Awaited by `send`; `stop` must not throw when it failed.
  ready.catch(() => {});
  return {
    async send(kind, data, options = {}) {
      await ready;
      const id = await boss.send(kind.name, data, options);
      if (id) return id;
      // pg-boss inserts a job only into an existing queue, and answers null otherwise as it does
      // for a singleton already queued.
      if (!(await boss.getQueue(kind.name))) {
        throw new JobQueueMissingError(`There is no ${kind.name} queue: no server has started.`);
      }
      if (options.singletonKey !== undefined) return null;
      throw new Error(`The ${kind.name} job was not queued`);
    },
    async stop() {
      const started = await ready.then(
        () => true,
        () => false,
      );
      if (started) await boss.stop({ graceful: false, wait: true, close: false });
    },
  };
}

/** How often an idle worker looks for jobs another process queued (this one's wake it at once). */
const POLL_SECONDS = 2;
/** How long closing waits for a running job to notice `stopping` and give up. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * Starts pg-boss on the database with a worker for each kind, one job at a time per kind in this
 * process (an import is heavy: two at once would only share the same core and connection). Jobs
 * live in the database, so any process sharing it may take one, and a job a stopped server left
 * behind runs again (its `retryLimit`) after it expires. The queue's own errors (a database gone
 * for a while) are logged, and it goes on polling.
 *
 * It starts in the background: a server's start (and a restarted one's first answers) never
 * waits for it; `send` does. `stopTimeoutMs` (tests) replaces how long `stop` waits for a job.
 */
export function startJobQueue(
  handle: DatabaseHandle,
  kinds: readonly JobKind<object>[],
  log: FastifyBaseLogger,
  { stopTimeoutMs = STOP_TIMEOUT_MS }: { stopTimeoutMs?: number } = {},
): JobQueue {
  // pg-boss marks a job done or failed without awaiting the statement, so a failure of it is a
  // rejection nobody handles. Stopping therefore waits for the statements it has in flight and
  // for the jobs still running (a worker's fetch in flight as pg-boss stops still hands its job
  // over, after pg-boss's own wait), before the database may be closed: both are kept here.
  const unsettled = new Set<Promise<unknown>>();
  const track = (promise: Promise<unknown>) => {
    unsettled.add(promise);
    const settled = () => unsettled.delete(promise);
    promise.then(settled, settled);
  };
  let stopped = false;
  const boss = new PgBoss({
    ...bossOptions(handle, { migrate: false, supervise: true }),
    db: {
      executeSql: (text: string, values: unknown[]) => {
        // Only a job that outran the stop's timeout gets here (pg-boss's stop has marked it failed,
        // to be retried if it has retries left): its statement would meet a closed pool. It is
        // left unanswered rather than refused, as pg-boss would not handle the refusal.
        if (stopped) return new Promise<never>(() => {});
        const statement = handle.executeSql(text, values);
        track(statement);
        return statement;
      },
    },
  });
  boss.on('error', (error) =>
    log.warn({ err: error }, 'the job queue could not reach the database'),
  );
  let stopping = false;
  const workers = new Map<string, string>();
  const ready = (async () => {
    await boss.start();
    for (const kind of kinds) {
      await boss.createQueue(kind.name, {
        name: kind.name,
        expireInSeconds: kind.expireInSeconds,
        retryLimit: kind.retryLimit,
        ...(kind.policy ? { policy: kind.policy } : {}),
      });
      const workerId = await boss.work<object>(
        kind.name,
        { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 },
        ([job]) => {
          if (!job) return Promise.resolve();
          const done = (async () => {
            log.info({ job: job.id, kind: kind.name }, 'job started');
            await kind.run(job.data, () => stopping);
            log.info({ job: job.id, kind: kind.name }, 'job done');
          })();
          track(done);
          return done;
        },
      );
      workers.set(kind.name, workerId);
    }
  })();
  ready.catch((error: unknown) =>
    log.error({ err: error }, 'the job queue did not start: queued work waits for a restart'),
  );
  return {
    async send(kind, data, options = {}) {
      await ready;
      const id = await boss.send(kind.name, data, options);
      if (!id && options.singletonKey !== undefined) return null;
      if (!id) throw new Error(`The ${kind.name} job was not queued`);
      const workerId = workers.get(kind.name);
      if (workerId) boss.notifyWorker(workerId);
      return id;
    },
    async stop() {
      stopping = true;
      await ready.catch(() => {});
      const deadline = Date.now() + stopTimeoutMs;
      await boss.stop({ graceful: true, wait: true, close: false, timeout: stopTimeoutMs });
      while (unsettled.size > 0) {
        const left = deadline - Date.now();
        if (left <= 0) {
          log.warn(
            'a job was still running as the server closed: it runs again if it has retries left',
          );
          break;
        }
        await settledWithin([...unsettled], left);
        // What a finished job leads to (pg-boss marking it done) is issued a few microtasks on.
        await new Promise((resolve) => setImmediate(resolve));
      }
      stopped = true;
    },
  };
}

/** Resolves when every promise has settled, or after `ms`, whichever is first. */
async function settledWithin(promises: Promise<unknown>[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.allSettled(promises), elapsed]);
  clearTimeout(timer);
}
