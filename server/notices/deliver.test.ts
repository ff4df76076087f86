import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { TEST_AUTH_SECRET } from '../test/app.ts';
import { deliverPendingNotices, EMAIL_CLAIM_LEASE_MS } from './deliver.ts';
import { createNotices } from './store.ts';
import { claimNoticesAgo } from '../test/notices.ts';

const START = new Date('2026-11-23T15:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const PEOPLE = 3;
const NOTICES_EACH = 4;

describe.each(testDatabaseKinds())('delivering notice e-mails on %s', (kind) => {
  let database: DatabaseHandle;
  const db = () => database.db;
  const userIds = Array.from({ length: PEOPLE }, (_, index) => `deliver-test-${index}`);

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await db()
      .insertInto('users')
      .values(userIds.map((id) => ({ id, name: id, email: `${id}@uni.example` })))
      .execute();
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await db().deleteFrom('notices').execute();
    await createNotices(
      db(),
      userIds.flatMap((userId) =>
        Array.from({ length: NOTICES_EACH }, (_, index) => ({
          userId,
          kind: 'overdue' as const,
          key: `overdue:test-${index}`,
          title: `Notice ${index}`,
          body: 'Please return it.',
          link: '/student',
          now: START,
        })),
      ),
    );
  });

  /**
   * A mailer that takes a few milliseconds per message, so that senders running at once overlap,
   * and that notes, as each message goes, how many notices are claimed ('sending') at that moment.
   */
  function slowMailer() {
    const sent: MailMessage[] = [];
    const claimedWhileSending: number[] = [];
    const mailer: Mailer = {
      describe: () => 'memory',
      async send(message) {
        const row = await db()
          .selectFrom('notices')
          .select((eb) => eb.fn.countAll<string>().as('sending'))
          .where('email_state', '=', 'sending')
          .executeTakeFirstOrThrow();
        claimedWhileSending.push(Number(row.sending));
        await new Promise((resolve) => setTimeout(resolve, 5));
        sent.push(message);
      },
    };
    return { mailer, sent, claimedWhileSending };
  }

  const deliver = (mailer: Mailer, now: Date) =>
    deliverPendingNotices({
      db: db(),
      mailer,
      secret: TEST_AUTH_SECRET,
      publicUrl: 'http://localhost:3000',
      now,
    });

  /** How many times each Message-ID went out. */
  const countsById = (sent: MailMessage[]) => {
    const counts = new Map<string, number>();
    for (const message of sent)
      counts.set(message.messageId!, (counts.get(message.messageId!) ?? 0) + 1);
    return counts;
  };

  it('two senders at once send each notice exactly once, even when their clocks disagree', async () => {
    // Two processes, or a minute's job and a run queued by a change, whose idea of "now" is far
    // apart: a slow run keeps the time it started at, a clock is set wrong, a test moves its clock.
    const { mailer, sent } = slowMailer();
    const reports = await Promise.all([
      deliver(mailer, START),
      deliver(mailer, new Date(START.getTime() + DAY)),
    ]);
    expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(PEOPLE * NOTICES_EACH);
    const counts = countsById(sent);
    expect(counts.size).toBe(PEOPLE * NOTICES_EACH);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
    const states = await db().selectFrom('notices').select('email_state').distinct().execute();
    expect(states).toEqual([{ email_state: 'sent' }]);
  });

  it('claims only the notice it is sending, so a slow batch never outlives its lease', async () => {
    const { mailer, sent, claimedWhileSending } = slowMailer();
    await deliver(mailer, START);
    expect(sent).toHaveLength(PEOPLE * NOTICES_EACH);
    expect(Math.max(...claimedWhileSending)).toBe(1);
  });

  it('takes again a claim older than the lease by the database clock, whatever the run’s clock', async () => {
    const [dead, alive] = userIds as [string, string];
    // A sender that died eleven minutes ago, and one still sending, claimed a minute ago.
    await claimNoticesAgo(db(), dead, EMAIL_CLAIM_LEASE_MS + 60_000);
    await claimNoticesAgo(db(), alive, 60_000);
    const { mailer, sent } = slowMailer();
    // A run whose clock is a day ahead still leaves the live claim alone.
    await deliver(mailer, new Date(Date.now() + DAY));
    const to = (userId: string) => sent.filter((message) => message.to === `${userId}@uni.example`);
    expect(to(dead)).toHaveLength(NOTICES_EACH);
    expect(to(alive)).toHaveLength(0);
    const left = await db()
      .selectFrom('notices')
      .select('email_state')
      .where('user_id', '=', alive)
      .distinct()
      .execute();
    expect(left).toEqual([{ email_state: 'sending' }]);
  });
});
