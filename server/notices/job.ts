import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { Database } from '../db/schema.ts';
import type { JobKind, JobQueue, JobSpec } from '../jobs/queue.ts';
import type { Mailer } from '../mail/mailer.ts';
import { deliverPendingNotices } from './deliver.ts';
import { findDueNotices } from './sweep.ts';

/** A notices job carries nothing: it works out what is due from the tables when it runs. */
export type NoticesJobData = Record<string, never>;

/** The kind of job that makes the time-based notices and sends pending notice e-mails. */
export const NOTICES_JOB: JobSpec<NoticesJobData> = {
  name: 'notices',
  // A run takes seconds; one still "running" after five minutes died with its server and runs
  // again. Retrying matters little: the next minute's job does the same work.
  expireInSeconds: 300,
  retryLimit: 1,
};

/**
 * Queues a notices run unless one is already queued for this minute: the once-a-minute sweeper
 * of every process calls it, and pg-boss's singleton key (unique per key and minute, in the
 * database) lets only the first of them in.
 */
export async function queueMinuteNotices(jobs: JobQueue): Promise<void> {
  await jobs.send(NOTICES_JOB, {}, { singletonKey: 'minute', singletonSeconds: 60 });
}

/** What a notices run needs from the server. */
export interface NoticesJobContext {
  db: Kysely<Database>;
  config: Config;
  mailer: Mailer;
  /** The server's secret, which signs unsubscribe links. */
  secret: string;
  now: () => Date;
  /** Told who got new notices, so their bells can be updated (the caller owns the sockets). */
  onNewNotices: (userIds: readonly string[]) => Promise<void> | void;
}

/** NOTICES_JOB with what runs it: the sweep, the bells of those it told something, the e-mails. */
export function noticesJob(context: NoticesJobContext): JobKind<NoticesJobData> {
  return {
    ...NOTICES_JOB,
    async run(_data, stopping) {
      const now = context.now();
      const people = await findDueNotices(context.db, now, {
        timeZone: context.config.library.timeZone,
        libraryName: context.config.library.name,
      });
      if (people.length > 0) await context.onNewNotices(people);
      await deliverPendingNotices({
        db: context.db,
        mailer: context.mailer,
        secret: context.secret,
        publicUrl: context.config.publicUrl,
        libraryName: context.config.library.name,
        now,
        stopping,
      });
    },
  };
}

/**
 * Queues a notices run now, without waiting for it, after a change that may have offered a copy
 * to someone waiting (a return, a cancellation, a no-show, a copy back on the shelf): their
 * notice and e-mail go at once rather than at the next minute's run. A failure to queue is only
 * logged: the minute's run makes the notice anyway.
 */
export function wakeNotices(
  jobs: JobQueue,
  log: { warn: (object: object, message: string) => void },
): void {
  jobs
    .send(NOTICES_JOB, {})
    .catch((error: unknown) =>
      log.warn({ err: error }, 'the notices job was not queued; the next minute’s run sends them'),
    );
}
