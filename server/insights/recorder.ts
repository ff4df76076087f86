import { createHmac } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, InsightKind } from '../db/schema.ts';
import { localDate } from '../reservations/calendar.ts';

/** How often a process writes what it gathered: a crash loses at most this long's counts. */
export const INSIGHTS_FLUSH_MS = 5_000;

/** The longest search words kept; longer ones are cut (they are rare and never a useful term). */
const MAX_TERM_LENGTH = 100;

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters at six a row. */
const ROWS_PER_STATEMENT = 5_000;

/** One thing to count: its kind, its scope (a search's type tab) and its subject. */
export interface InsightEvent {
  kind: InsightKind;
  scope?: string;
  /** The normalised search words, or the item's id. */
  subject: string;
}

/**
 * Who caused an event, as the request knows it without a statement: the session cookie's token
 * (unverified; resolved to its person when the batch is written, off the request path) and the
 * client address, which stands for a guest or a token that names no session.
 */
export interface InsightWho {
  sessionToken: string | null;
  address: string;
}

/** The per-process gatherer of insight counts. */
export interface InsightRecorder {
  /** Counts an event in memory; never waits, never throws. */
  record(event: InsightEvent, who: InsightWho): void;
  /** Writes what is gathered now (tests, shutdown). */
  flush(): Promise<void>;
  /** Stops the timer and writes the last batch. */
  close(): Promise<void>;
}

/** What the recorder needs. */
export interface RecorderOptions {
  db: Kysely<Database>;
  /** The server's secret: the person keys are HMACs with it, so they mean nothing without it. */
  secret: string;
  now: () => Date;
  timeZone: string;
  /** False records nothing (the bench's "off" run). */
  enabled?: boolean;
  intervalMs?: number;
  log?: { warn: (object: object, message: string) => void };
}

/**
 * Search words as a term: lower case, control characters and inner spaces collapsed to one
 * space, quotes and punctuation at the edges dropped, cut to 100 characters. Empty when nothing
 * is left.
 */
export function normaliseTerm(query: string): string {
  return (
    query
      .normalize('NFKC')
      .toLowerCase()
      // Control characters (U+0000 cannot be stored at all) are spaces, like any other gap.
      .replace(/\p{Cc}/gu, ' ')
      .replace(/\s+/g, ' ')
      .replace(/^[\s"'`.,;:!?()[\]{}-]+|[\s"'`.,;:!?()[\]{}-]+$/g, '')
      .slice(0, MAX_TERM_LENGTH)
      .trim()
  );
}

/**
 * The person key of one day: an HMAC of who (a user id, or an address) with the secret and the
 * day. The same person on the same day gets the same key, so distinct people can be counted;
 * nobody can compute it without the secret, and no key links two days.
 */
export function personKey(secret: string, day: string, who: string): string {
  return createHmac('sha256', secret)
    .update(`insights|${day}|${who}`)
    .digest('base64url')
    .slice(0, 22);
}

/** The session token of a `Cookie` header (better-auth's `…session_token`, signed), or null. */
export function sessionTokenOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  for (const pair of cookieHeader.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || !pair.slice(0, equals).trim().endsWith('session_token')) continue;
    let value = pair.slice(equals + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // kept as it is
    }
    // `token.signature`: the token is what the sessions table holds.
    const dot = value.lastIndexOf('.');
    const token = dot > 0 ? value.slice(0, dot) : value;
    return token.length > 0 && token.length <= 200 ? token : null;
  }
  return null;
}

interface Pending {
  day: string;
  kind: InsightKind;
  scope: string;
  subject: string;
  token: string | null;
  address: string;
  count: number;
}

/**
 * Gathers insight events per process and writes them every few seconds in one statement (plus one
 * look-up of the batch's session tokens): a request only adds to a map. Tokens and addresses stay
 * in memory until the write turns them into day keys; neither is ever stored.
 */
export function createInsightRecorder(options: RecorderOptions): InsightRecorder {
  const { db, secret, now, timeZone, enabled = true, log } = options;
  let batch = new Map<string, Pending>();
  let writing: Promise<void> = Promise.resolve();
  // The library's day, worked out once a minute: a request only reads it (time zones' offsets
  // are whole minutes, so a day never changes inside one).
  let dayMinute = Number.NaN;
  let cachedDay = '';
  const today = () => {
    const instant = now();
    const minute = Math.floor(instant.getTime() / 60_000);
    if (minute !== dayMinute) {
      dayMinute = minute;
      cachedDay = localDate(instant, timeZone);
    }
    return cachedDay;
  };

  const write = async (pending: Map<string, Pending>) => {
    if (pending.size === 0) return;
    const tokens = [...new Set([...pending.values()].flatMap((p) => (p.token ? [p.token] : [])))];
    const owners = new Map<string, string>();
    if (tokens.length > 0) {
      const rows = await db
        .selectFrom('sessions')
        .select(['token', 'user_id'])
        .where('token', 'in', tokens)
        .execute();
      for (const row of rows) owners.set(row.token, row.user_id);
    }
    const rows = new Map<
      string,
      {
        day: string;
        kind: InsightKind;
        scope: string;
        subject: string;
        person: string;
        count: number;
      }
    >();
    for (const p of pending.values()) {
      const owner = p.token ? owners.get(p.token) : undefined;
      const person = personKey(secret, p.day, owner ? `user:${owner}` : `address:${p.address}`);
      const key = JSON.stringify([p.day, p.kind, p.scope, p.subject, person]);
      const row = rows.get(key);
      if (row) row.count += p.count;
      else rows.set(key, { ...p, person });
    }
    const values = [...rows.values()].map(({ day, kind, scope, subject, person, count }) => ({
      day,
      kind,
      scope,
      subject,
      person,
      count,
    }));
    for (let start = 0; start < values.length; start += ROWS_PER_STATEMENT) {
      await db
        .insertInto('insight_events')
        .values(values.slice(start, start + ROWS_PER_STATEMENT))
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'kind', 'scope', 'subject', 'person'])
            .doUpdateSet({ count: sql`insight_events.count + excluded.count` }),
        )
        .execute();
    }
  };

  const flush = () => {
    const pending = batch;
    batch = new Map();
    // One write at a time, in order; a failed one is logged and its batch given up.
    writing = writing.then(() =>
      write(pending).catch((error: unknown) =>
        log?.warn({ err: error }, 'insight counts were not written; that batch is lost'),
      ),
    );
    return writing;
  };

  const timer = enabled
    ? setInterval(() => void flush(), options.intervalMs ?? INSIGHTS_FLUSH_MS)
    : undefined;
  timer?.unref();

  return {
    record(event, who) {
      if (!enabled) return;
      const subject = event.subject.slice(0, 200);
      if (subject === '') return;
      const day = today();
      const scope = event.scope ?? '';
      const key = `${day}\u0000${event.kind}\u0000${scope}\u0000${subject}\u0000${who.sessionToken ?? ''}\u0000${who.address}`;
      const pending = batch.get(key);
      if (pending) pending.count += 1;
      else
        batch.set(key, {
          day,
          kind: event.kind,
          scope,
          subject,
          token: who.sessionToken,
          address: who.address,
          count: 1,
        });
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
