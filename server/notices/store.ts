import { type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  NOTICE_KINDS,
  NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT,
  type NoticeKind,
  type NoticePreferences,
} from '#contract/http/notices.ts';
import { DATABASE_BIGINT_MAX } from '#contract/limits.ts';
import type { Database, NoticesTable } from '../db/schema.ts';

/** The database or a transaction of it: notices are made inside the change they report. */
type Db = Kysely<Database> | Transaction<Database>;

/** A stored notice, as the list reads it. */
export type NoticeRow = Pick<
  Selectable<NoticesTable>,
  'id' | 'kind' | 'title' | 'body' | 'link' | 'created_at' | 'read_at'
>;

/** What a new notice says, and the key of the fact it reports. */
export interface NewNotice {
  userId: string;
  kind: NoticeKind;
  /** Names the fact (`due-soon:LOAN-100001:2026-12-01T15:00:00.000Z`); one notice per person and key. */
  key: string;
  title: string;
  body: string;
  link: string;
  /** The moment it is about (an offer's end, a due date), for a calendar entry in its e-mail. */
  calendarAt?: Date;
  now: Date;
}

/**
 * Stores a notice unless its recipient already has one with the same key; answers whether it was
 * new. ON CONFLICT rather than a look first: two sweeps or a retried change racing each other
 * both come out with one notice and no error (an error would abort the caller's transaction).
 */
export async function createNotice(trx: Db, notice: NewNotice): Promise<boolean> {
  const inserted = await trx
    .insertInto('notices')
    .values({
      user_id: notice.userId,
      kind: notice.kind,
      dedupe_key: notice.key,
      title: notice.title,
      body: notice.body,
      link: notice.link,
      calendar_at: notice.calendarAt ?? null,
      created_at: notice.now,
    })
    .onConflict((conflict) => conflict.columns(['user_id', 'dedupe_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Stores several notices at once (a sweep's), each unless its recipient already has its key;
 * answers the recipients of those that were new, once each.
 */
export async function createNotices(trx: Db, notices: readonly NewNotice[]): Promise<string[]> {
  if (notices.length === 0) return [];
  const inserted = await trx
    .insertInto('notices')
    .values(
      notices.map((notice) => ({
        user_id: notice.userId,
        kind: notice.kind,
        dedupe_key: notice.key,
        title: notice.title,
        body: notice.body,
        link: notice.link,
        calendar_at: notice.calendarAt ?? null,
        created_at: notice.now,
      })),
    )
    .onConflict((conflict) => conflict.columns(['user_id', 'dedupe_key']).doNothing())
    .returning('user_id')
    .execute();
  return [...new Set(inserted.map((row) => row.user_id))];
}

/**
 * One page of `userId`'s notices, newest first, older than notice `before` when given; one more
 * row than `limit` is read to tell whether more exist.
 */
export async function listNotices(
  db: Db,
  userId: string,
  { before, limit }: { before?: string; limit: number },
): Promise<{ rows: NoticeRow[]; hasMore: boolean }> {
  let query = db
    .selectFrom('notices')
    .select(['id', 'kind', 'title', 'body', 'link', 'created_at', 'read_at'])
    .where('user_id', '=', userId);
  // Beyond the largest id there is nothing to skip (and the bigint cast would fail).
  if (before !== undefined && BigInt(before) <= DATABASE_BIGINT_MAX)
    query = query.where('id', '<', before);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** How many of `userId`'s notices are unread: the bell's number. */
export async function unreadCount(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notices')
    .select((eb) => eb.fn.countAll<string>().as('unread'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.unread);
}

/** The unread counts of several people at once (those with none are 0). */
export async function unreadCounts(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('notices')
    .select(['user_id', (eb) => eb.fn.countAll<string>().as('unread')])
    .where('user_id', 'in', userIds)
    .where('read_at', 'is', null)
    .groupBy('user_id')
    .execute();
  for (const row of rows) counts.set(row.user_id, Number(row.unread));
  return counts;
}

/**
 * Marks `userId`'s notices read: those of `ids`, or all of them. Only the caller's own: an id of
 * someone else's notice (or none at all) matches nothing, silently, so ids cannot be probed.
 * Answers the unread count after it.
 */
export async function markNoticesRead(
  db: Db,
  userId: string,
  which: { ids?: readonly string[]; all?: boolean },
  now: Date,
): Promise<number> {
  // Ids are bigints: anything else could only fail the cast, so it is left out rather than sent.
  const ids = (which.ids ?? []).filter((id) => /^\d{1,18}$/.test(id));
  if (which.all === true || ids.length > 0) {
    let update = db
      .updateTable('notices')
      .set({ read_at: now })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (which.all !== true) update = update.where('id', 'in', ids);
    await update.execute();
  }
  return unreadCount(db, userId);
}

/**
 * `userId`'s e-mail choice for every kind: on unless they turned it off, or for the kinds of
 * `NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT` (mentions, decision 042) off unless they turned it on.
 */
export async function noticePreferences(db: Db, userId: string): Promise<NoticePreferences> {
  const rows = await db
    .selectFrom('notice_preferences')
    .select(['kind', 'email'])
    .where('user_id', '=', userId)
    .execute();
  const email = Object.fromEntries(
    NOTICE_KINDS.map((kind) => [kind, !NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT.includes(kind)]),
  ) as Record<NoticeKind, boolean>;
  for (const row of rows) email[row.kind] = row.email;
  return { email };
}

/** Sets `userId`'s e-mail choice for the kinds in `email` (the others stay) and answers them all. */
export async function setNoticePreferences(
  db: Db,
  userId: string,
  email: Partial<Record<NoticeKind, boolean>>,
  now: Date,
): Promise<NoticePreferences> {
  const entries = (Object.entries(email) as [NoticeKind, boolean | undefined][]).filter(
    (entry): entry is [NoticeKind, boolean] => typeof entry[1] === 'boolean',
  );
  if (entries.length > 0) {
    await db
      .insertInto('notice_preferences')
      .values(entries.map(([kind, on]) => ({ user_id: userId, kind, email: on, updated_at: now })))
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'kind']).doUpdateSet((eb) => ({
          email: eb.ref('excluded.email'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  return noticePreferences(db, userId);
}
