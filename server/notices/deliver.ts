import { sql, type Kysely } from 'kysely';
import { NOTICE_KIND_LABELS, type NoticeKind } from '#contract/http/notices.ts';
import { ROUTES } from '#contract/routes.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';
import { calendarFile, PICKUP_ALARM_SECONDS } from '../reservations/ics.ts';
import { unsubscribeToken } from './unsubscribe.ts';

/**
 * How long a sender's claim on a notice's e-mail holds. A claim older than this belongs to a
 * process that died between claiming and marking the mail sent, and is taken again. Far longer
 * than one message can take (the mailer gives up on SMTP after 40 s at most), so a live sender's
 * claim is never taken from it.
 */
export const EMAIL_CLAIM_LEASE_MS = 10 * 60 * 1000;

/** Notices claimed at a time: few, so a claim is never held long before its mail goes. */
const CLAIM_BATCH = 20;

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
 * 'skipped'. The others are claimed a few at a time (`FOR UPDATE SKIP LOCKED`, then 'sending'
 * with the time), so two processes running this at once never take the same notice; each is
 * marked 'sent' once the mailer has accepted it.
 *
 * The trade-off for a process killed between sending and marking: its claim lapses after
 * `EMAIL_CLAIM_LEASE_MS` and the notice is sent again, so nothing is lost, and the one mail that
 * was in flight at the kill may arrive twice. It carries the same Message-ID both times (and in
 * the outbox overwrites its own file), which many mail programs fold into one. The other choice,
 * never retrying a claim, would lose that mail silently instead.
 *
 * A mailer failure gives the unsent claims back at once and throws: the next run (a minute
 * later) tries again.
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
  const leaseStart = new Date(now.getTime() - EMAIL_CLAIM_LEASE_MS);

  for (;;) {
    if (context.stopping?.()) return report;
    const claimed = await db
      .updateTable('notices')
      .set({ email_state: 'sending', email_claimed_at: now })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('notices')
          .select('id')
          .where((where) =>
            where.or([
              where('email_state', '=', 'pending'),
              where.and([
                where('email_state', '=', 'sending'),
                where('email_claimed_at', '<', leaseStart),
              ]),
            ]),
          )
          .orderBy('id')
          .limit(CLAIM_BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning('id')
      .execute();
    if (claimed.length === 0) return report;
    const ids = claimed.map((row) => row.id);
    const rows: Claimed[] = await db
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
        eb.fn.coalesce('p.email', eb.val(true)).as('emailOn'),
      ])
      .where('n.id', 'in', ids)
      .orderBy('n.id')
      .execute();

    const done: string[] = [];
    try {
      for (const row of rows) {
        if (context.stopping?.()) break;
        if (!row.emailOn) {
          // Turned off after the first step of this run: keep the choice.
          await markClaim(db, row.id, now, { email_state: 'skipped', email_claimed_at: null });
          report.skipped += 1;
        } else {
          await context.mailer.send(noticeMail(context, row));
          await markClaim(db, row.id, now, {
            email_state: 'sent',
            email_claimed_at: null,
            emailed_at: now,
          });
          report.sent += 1;
        }
        done.push(row.id);
      }
    } finally {
      const left = ids.filter((id) => !done.includes(id));
      if (left.length > 0) {
        await db
          .updateTable('notices')
          .set({ email_state: 'pending', email_claimed_at: null })
          .where('id', 'in', left)
          .where('email_state', '=', 'sending')
          .where('email_claimed_at', '=', now)
          .execute();
      }
    }
    if (done.length < ids.length) return report;
  }
}

/** Ends this run's claim on notice `id`: only while the claim is still this run's. */
async function markClaim(
  db: Kysely<Database>,
  id: string,
  claimedAt: Date,
  set: {
    email_state: 'sent' | 'skipped';
    email_claimed_at: null;
    emailed_at?: Date;
  },
): Promise<void> {
  await db
    .updateTable('notices')
    .set(set)
    .where('id', '=', id)
    .where('email_state', '=', 'sending')
    .where('email_claimed_at', '=', claimedAt)
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
