import { sql, type Kysely } from 'kysely';
import {
  NOTICE_KIND_LABELS,
  NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT,
  type NoticeKind,
} from '#contract/http/notices.ts';
import { ROUTES } from '#contract/routes.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { calendarFile, PICKUP_ALARM_SECONDS } from '../reservations/ics.ts';
import { unsubscribeToken } from './unsubscribe.ts';

/**
 * How long a sender's claim on a notice's e-mail holds, by the database's clock. A claim older
 * than this belongs to a process that died between claiming and marking the mail sent, and is
 * taken again. A sender claims only the notice it is about to send, so a claim lives as long as
 * one message takes (the mailer gives up on SMTP after 40 s at most): a live sender's claim is
 * never taken from it.
 */
export const EMAIL_CLAIM_LEASE_MS = 10 * 60 * 1000;

/**
 * The moment of a claim, by the database's clock: every process (and every run, whatever the
 * time it started at or the clock a test gives it) measures leases against the same clock. To
 * the millisecond, so the stamp read back into a JavaScript Date is exact and names the claim.
 */
const CLAIM_TIME = sql<Date>`date_trunc('milliseconds', clock_timestamp())`;

/** The stamp before which a claim has lapsed. */
const LEASE_START = sql<Date>`clock_timestamp() - ${sql.lit(EMAIL_CLAIM_LEASE_MS)} * interval '1 millisecond'`;

/** What delivering needs: where mail goes, the secret that signs unsubscribe links, the clock. */
export interface DeliveryContext {
  db: Kysely<Database>;
  mailer: Mailer;
  /** The server's secret (better-auth's): unsubscribe tokens are signed with it. */
  secret: string;
  /** The app's address, for the links in a message. */
  publicUrl: string;
  /** Where calendar entries take place, and who writes them. */
  libraryName?: string;
  /** The app's time, for `emailed_at` and the calendar entries (claims go by the database's). */
  now: Date;
  /** True once the server is closing: the rest waits for the next run. */
  stopping?: () => boolean;
}

/** What one run did. */
export interface DeliveryReport {
  sent: number;
  skipped: number;
}

/** One claimed notice with what its e-mail needs of its recipient. */
interface Claimed {
  id: string;
  user_id: string;
  kind: NoticeKind;
  title: string;
  body: string;
  link: string;
  email: string;
  greeting: string;
  emailOn: boolean;
  calendar_at: Date | null;
}

/**
 * Sends the e-mail of every notice still pending, through the mailer, once.
 *
 * A notice whose kind its recipient turned off (or whose account is disabled) is marked
 * 'skipped'. The others are claimed one at a time, just before each is sent (`FOR UPDATE SKIP
 * LOCKED`, then 'sending' stamped by the database's clock), so two processes running this at
 * once never take the same notice; each is marked 'sent' once the mailer has accepted it. One at
 * a time and by the database's clock, because a claim is judged lapsed by its age: a batch's
 * last message could wait longer than the lease behind the others' slow SMTP, and a run's own
 * `now` (fixed when it started, or set by a test) differs from another's, so either made a live
 * claim look lapsed, and its notice went twice.
 *
 * The trade-off for a process killed between sending and marking: its claim lapses after
 * `EMAIL_CLAIM_LEASE_MS` and the notice is sent again, so nothing is lost, and the one mail that
 * was in flight at the kill may arrive twice. It carries the same Message-ID both times (and in
 * the outbox overwrites its own file), which many mail programs fold into one. The other choice,
 * never retrying a claim, would lose that mail silently instead.
 *
 * A mailer failure gives the claim back at once and throws: the next run (a minute later) tries
 * again.
 */
export async function deliverPendingNotices(context: DeliveryContext): Promise<DeliveryReport> {
  const { db, now } = context;
  const skipped = await db
    .updateTable('notices')
    .set({ email_state: 'skipped', email_claimed_at: null })
    .where('email_state', '=', 'pending')
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('notice_preferences as p')
            .select('p.kind')
            .whereRef('p.user_id', '=', 'notices.user_id')
            .whereRef('p.kind', '=', 'notices.kind')
            .where('p.email', '=', false),
        ),
        // A kind whose e-mail is off by default (mentions, decision 042) goes only to those who
        // turned it on.
        eb.and([
          eb('notices.kind', 'in', [...NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT]),
          eb.not(
            eb.exists(
              eb
                .selectFrom('notice_preferences as p')
                .select('p.kind')
                .whereRef('p.user_id', '=', 'notices.user_id')
                .whereRef('p.kind', '=', 'notices.kind')
                .where('p.email', '=', true),
            ),
          ),
        ]),
        eb.exists(
          eb
            .selectFrom('users as u')
            .select('u.id')
            .whereRef('u.id', '=', 'notices.user_id')
            .where('u.disabled_at', 'is not', null),
        ),
      ]),
    )
    .executeTakeFirst();
  const report: DeliveryReport = { sent: 0, skipped: Number(skipped.numUpdatedRows) };

  for (;;) {
    if (context.stopping?.()) return report;
    const claim = await claimNext(db);
    if (!claim) return report;
    const row: Claimed | undefined = await db
      .selectFrom('notices as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .leftJoin('notice_preferences as p', (join) =>
        join.onRef('p.user_id', '=', 'n.user_id').onRef('p.kind', '=', 'n.kind'),
      )
      .select([
        'n.id',
        'n.user_id',
        'n.kind',
        'n.title',
        'n.body',
        'n.link',
        'n.calendar_at',
        'u.email',
      ])
      .select((eb) => [
        sql<string>`coalesce(nullif(u.first_name, ''), u.name)`.as('greeting'),
        eb.fn
          .coalesce(
            'p.email',
            sql<boolean>`n.kind NOT IN (${sql.join([...NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT])})`,
          )
          .as('emailOn'),
      ])
      .where('n.id', '=', claim.id)
      .executeTakeFirst();
    // Gone with its account since the claim: nothing to send.
    if (!row) continue;
    if (!row.emailOn) {
      // Turned off after the first step of this run: keep the choice.
      await endClaim(db, claim, { email_state: 'skipped', email_claimed_at: null });
      report.skipped += 1;
      continue;
    }
    try {
      await context.mailer.send(noticeMail(context, row));
    } catch (error) {
      await endClaim(db, claim, { email_state: 'pending', email_claimed_at: null });
      throw error;
    }
    await endClaim(db, claim, { email_state: 'sent', email_claimed_at: null, emailed_at: now });
    report.sent += 1;
  }
}

/** A notice this run has claimed, and the stamp that says the claim is still this run's. */
interface Claim {
  id: string;
  claimedAt: Date;
}

/**
 * Claims the first notice whose e-mail is pending, or whose claim has lapsed (its sender died),
 * skipping any another sender is claiming at this moment; undefined when none is left.
 */
async function claimNext(db: Kysely<Database>): Promise<Claim | undefined> {
  const claimed = await db
    .updateTable('notices')
    .set({ email_state: 'sending', email_claimed_at: CLAIM_TIME })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('notices')
        .select('id')
        .where((where) =>
          where.or([
            where('email_state', '=', 'pending'),
            where.and([
              where('email_state', '=', 'sending'),
              where('email_claimed_at', '<', LEASE_START),
            ]),
          ]),
        )
        .orderBy('id')
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .returning(['id', 'email_claimed_at'])
    .executeTakeFirst();
  return claimed?.email_claimed_at
    ? { id: claimed.id, claimedAt: claimed.email_claimed_at }
    : undefined;
}

/**
 * Ends this run's claim on a notice (sent, skipped, or given back): only while the claim is still
 * this run's, never one another sender took after this one lapsed.
 */
async function endClaim(
  db: Kysely<Database>,
  claim: Claim,
  set: {
    email_state: 'sent' | 'skipped' | 'pending';
    email_claimed_at: null;
    emailed_at?: Date;
  },
): Promise<void> {
  await db
    .updateTable('notices')
    .set(set)
    .where('id', '=', claim.id)
    .where('email_state', '=', 'sending')
    .where('email_claimed_at', '=', claim.claimedAt)
    .execute();
}

/**
 * A notice's e-mail: its text, the link to what it is about, and a one-click unsubscribe from its
 * kind (RFC 8058: `List-Unsubscribe` with `List-Unsubscribe-Post`, and the same link in the text
 * for a person, which opens the unsubscribe screen).
 */
function noticeMail(context: DeliveryContext, row: Claimed): Parameters<Mailer['send']>[0] {
  const { secret, publicUrl } = context;
  const base = publicUrl.replace(/\/+$/, '');
  const token = encodeURIComponent(unsubscribeToken(secret, row.user_id, row.kind));
  return {
    to: row.email,
    subject: row.title,
    text: [
      `Hello ${row.greeting},`,
      '',
      row.body,
      '',
      `Open it in the library: ${base}${row.link}`,
      '',
      '--',
      `You get this e-mail because e-mails for “${NOTICE_KIND_LABELS[row.kind]}” are on.`,
      `To stop them (you will still see these notices in the app): ${base}/unsubscribe?token=${token}`,
      `To choose which notices come by e-mail: ${base}${ROUTES.account}`,
    ].join('\n'),
    link: `${base}${row.link}`,
    ...(row.calendar_at ? { attachments: [calendarEntry(context, row, row.calendar_at)] } : {}),
    headers: {
      'List-Unsubscribe': `<${base}/api/notices/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    messageId: `<notice-${row.id}@${new URL(base).hostname}>`,
  };
}

/**
 * The calendar entry of a notice about a moment (an offer's end, a due date): a half-hour event
 * ending then, which reminds its owner a day before a due date and an hour before an offer ends.
 */
function calendarEntry(
  { publicUrl, libraryName = 'the library', now }: DeliveryContext,
  row: Claimed,
  at: Date,
): { filename: string; content: string; contentType: string } {
  const dueDate = row.kind === 'due_soon';
  return {
    filename: `${dueDate ? 'due-date' : 'offer-ends'}-${row.id}.ics`,
    contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
    content: calendarFile(
      {
        uid: `notice-${row.id}@${new URL(publicUrl).hostname}`,
        start: new Date(at.getTime() - 30 * 60_000),
        end: at,
        stamp: now,
        summary: row.title,
        description: row.body,
        location: libraryName,
        alarmBeforeSeconds: dueDate ? 24 * 60 * 60 : PICKUP_ALARM_SECONDS,
      },
      libraryName,
    ),
  };
}
