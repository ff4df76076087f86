import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  markNoticesReadResponseSchema,
  noticePreferencesSchema,
  noticesResponseSchema,
  type Notice,
} from '#contract/http/notices.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { createMailer, outboxDirectory } from '../../mail/mailer.ts';
import { EMAIL_CLAIM_LEASE_MS, deliverPendingNotices } from '../../notices/deliver.ts';
import { NOTICES_JOB, noticesJob } from '../../notices/job.ts';
import { BAD_UNSUBSCRIBE_TOKEN_MESSAGE, unsubscribeToken } from '../../notices/unsubscribe.ts';
import { announceUnread } from '../../realtime/notices.ts';
import { startJobQueue } from '../../jobs/queue.ts';
import { createTestApp, TEST_AUTH_SECRET, testConfig, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { startTestSmtpServer, type ReceivedMail } from '../../test/mail.ts';
import { connectChat, listenOnFreePort, nextEvent } from '../../test/sockets.ts';
import { claimNoticesAgo } from '../../test/notices.ts';

/** Monday 23 November 2026, 10:00 in New York. */
const START = new Date('2026-11-23T15:00:00Z');
const TIME_ZONE = 'America/New_York';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each(testDatabaseKinds())('notices on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
  let testApp: TestApp;
  let clock = START;
  let people: SignedInPerson[];
  let librarian: SignedInPerson;
  let books = 0;
  /** One notices run, wired as the app wires its job (server/app.ts). */
  let runNotices: () => Promise<void>;

  const db = () => testApp.database.db;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE, SMTP_URL: smtp.url },
      now: () => clock,
    });
    people = await signedInPeople(testApp, 4);
    librarian = await signedInPerson(testApp, 'librarian');
    // Sign-up mails its verification link without waiting for it: on a loaded machine one could
    // land after the first test's beforeEach emptied the inbox, and count as a second mail there.
    const subject = `Verify your e-mail address for ${testApp.config.library.name}`;
    for (const person of [...people, librarian])
      await smtp.waitFor(person.email, { subject, timeoutMs: 20_000 });
    const job = noticesJob({
      db: db(),
      config: testApp.config,
      mailer: createMailer(testApp.config, testApp.app.log),
      secret: TEST_AUTH_SECRET,
      now: () => clock,
      onNewNotices: (userIds) => announceUnread(testApp.app.io, db(), userIds),
    });
    runNotices = () => job.run({}, () => false);
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });
  beforeEach(async () => {
    clock = START;
    await db().deleteFrom('notices').execute();
    await db().deleteFrom('notice_preferences').execute();
    await db().deleteFrom('loans').execute();
    await db().deleteFrom('queued_holds').execute();
    await db().deleteFrom('reservations').execute();
    smtp.messages.length = 0;
  });

  /** A new book with one copy; answers its id and the copy's. */
  async function book(): Promise<{ itemId: string; copyId: string; title: string }> {
    const title = `Notice Book ${++books}`;
    const row = await db()
      .insertInto('items')
      .values({
        kind: 'book',
        title,
        authors: ['A. Writer'],
        source: 'test',
        source_id: crypto.randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setNumberedCopies(db(), row.id, 1, 0);
    const copy = await db()
      .selectFrom('copies')
      .select('id')
      .where('item_id', '=', row.id)
      .executeTakeFirstOrThrow();
    return { itemId: row.id, copyId: copy.id, title };
  }

  /** An open loan of a new book to `person`, due at `dueAt`. */
  async function loan(person: SignedInPerson, dueAt: Date) {
    const { itemId, copyId, title } = await book();
    const row = await db()
      .insertInto('loans')
      .values({
        user_id: person.id,
        item_id: itemId,
        copy_id: copyId,
        checked_out_at: new Date(dueAt.getTime() - 21 * DAY),
        due_at: dueAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { loanId: row.id, title };
  }

  /** An active reservation of a new book by `person` whose slot starts at `startsAt`. */
  async function reservation(person: SignedInPerson, startsAt: Date) {
    const { itemId } = await book();
    const row = await db()
      .insertInto('reservations')
      .values({
        user_id: person.id,
        item_id: itemId,
        pickup_date: '2026-11-23',
        time_slot: '11:00-11:30 AM',
        slot_starts_at: startsAt,
        expires_at: new Date(startsAt.getTime() + DAY),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A hold of a new book by `person`, offered at `offeredAt` for 48 hours. */
  async function offer(person: SignedInPerson, offeredAt: Date) {
    const { itemId } = await book();
    const row = await db()
      .insertInto('queued_holds')
      .values({
        user_id: person.id,
        item_id: itemId,
        status: 'offered',
        offered_at: offeredAt,
        offer_expires_at: new Date(offeredAt.getTime() + 48 * HOUR),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { holdId: row.id, itemId };
  }

  /** `person`'s notices as their bell's page lists them. */
  async function noticesOf(person: SignedInPerson, query = '') {
    const response = await person.client.get(`/api/notices${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return noticesResponseSchema.parse(response.json());
  }

  const kindsOf = (notices: Notice[]) => notices.map((notice) => notice.kind).sort();
  const mailTo = (person: SignedInPerson): ReceivedMail[] =>
    smtp.messages.filter((message) => message.to.includes(person.email));
  const unsubscribeLink = (mail: ReceivedMail) =>
    /\/unsubscribe\?token=([^\s]+)/.exec(mail.text)?.[1];

  describe('the time-based notices', () => {
    it('tells the first in line a copy is offered, once however often the sweep runs', async () => {
      const [a] = people as [SignedInPerson];
      const { holdId, itemId } = await offer(a, new Date(START.getTime() - HOUR));
      await runNotices();
      await runNotices();
      const { payload, unread } = await noticesOf(a);
      expect(payload).toHaveLength(1);
      expect(unread).toBe(1);
      expect(payload[0]).toMatchObject({
        kind: 'hold_offered',
        link: `/offline-book-service?book=${itemId}`,
        readAt: null,
        createdAt: START.toISOString(),
      });
      expect(payload[0]!.title).toMatch(/^A copy of “Notice Book \d+” is ready for you$/);
      expect(payload[0]!.body).toContain('Wednesday, November 25, 2026 at 9:00 AM');
      const key = await db().selectFrom('notices').select('dedupe_key').executeTakeFirstOrThrow();
      expect(key.dedupe_key).toBe(
        `hold-offered:${holdId}:${new Date(START.getTime() - HOUR).toISOString().replace('Z', '000Z')}`,
      );
      // One notice, one message, even when the app's own minute job runs beside these two runs.
      expect(mailTo(a).map((mail) => mail.parsed.subject)).toEqual([payload[0]!.title]);
    });

    it('says nothing of a lapsed offer', async () => {
      const [a] = people as [SignedInPerson];
      await offer(a, new Date(START.getTime() - 49 * HOUR));
      await runNotices();
      expect((await noticesOf(a)).payload).toEqual([]);
    });

    it('reminds of a pickup within the hour before its slot, and not of one past or later', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      const soon = await reservation(a, new Date(START.getTime() + 30 * MINUTE));
      await reservation(a, new Date(START.getTime() - MINUTE));
      const later = await reservation(b, new Date(START.getTime() + 2 * HOUR));
      await runNotices();
      const first = await noticesOf(a);
      expect(first.payload.map((notice) => [notice.kind, notice.link])).toEqual([
        ['pickup_reminder', '/offline-book-service'],
      ]);
      expect(first.payload[0]!.body).toContain(soon);
      expect(first.payload[0]!.title).toMatch(/^Pickup at 10:30 AM: /);
      expect((await noticesOf(b)).payload).toEqual([]);
      clock = new Date(START.getTime() + 70 * MINUTE);
      await runNotices();
      expect((await noticesOf(b)).payload.map((notice) => notice.body)).toEqual([
        expect.stringContaining(later),
      ]);
      expect((await noticesOf(a)).payload).toHaveLength(1);
    });

    it('warns of a loan due within two days, then of it overdue, and again after a renewal', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      const due = new Date(START.getTime() + DAY);
      const { loanId } = await loan(a, due);
      await loan(b, new Date(START.getTime() + 3 * DAY));
      await runNotices();
      expect(kindsOf((await noticesOf(a)).payload)).toEqual(['due_soon']);
      expect((await noticesOf(a)).payload[0]!.link).toBe('/userprofile');
      expect((await noticesOf(b)).payload).toEqual([]);

      clock = new Date(due.getTime() + MINUTE);
      await runNotices();
      await runNotices();
      expect(kindsOf((await noticesOf(a)).payload)).toEqual(['due_soon', 'overdue']);

      // Renewed: a new due date is a new fact, so due soon (then overdue) can be said again.
      const renewed = new Date(clock.getTime() + DAY);
      await db().updateTable('loans').set({ due_at: renewed }).where('id', '=', loanId).execute();
      await runNotices();
      expect(kindsOf((await noticesOf(a)).payload)).toEqual(['due_soon', 'due_soon', 'overdue']);
      // Returned: nothing more.
      await db()
        .updateTable('loans')
        .set({ returned_at: clock })
        .where('id', '=', loanId)
        .execute();
      clock = new Date(renewed.getTime() + HOUR);
      await runNotices();
      expect((await noticesOf(a)).payload).toHaveLength(3);
      expect(mailTo(a)).toHaveLength(3);
    });

    it('after a gap (a server down), makes and sends only what is true now', async () => {
      const [a] = people as [SignedInPerson];
      // Due yesterday: the due-soon window passed while nothing ran; only overdue is true now.
      await loan(a, new Date(START.getTime() - DAY));
      await reservation(a, new Date(START.getTime() - 2 * HOUR));
      await runNotices();
      expect(kindsOf((await noticesOf(a)).payload)).toEqual(['overdue']);
      expect(mailTo(a).map((mail) => mail.parsed.subject)).toEqual([
        expect.stringMatching(/is overdue$/),
      ]);
    });
  });

  describe('e-mail', () => {
    it('sends each notice once with a one-click unsubscribe, and a stable Message-ID', async () => {
      const [a] = people as [SignedInPerson];
      const { loanId } = await loan(a, new Date(START.getTime() + DAY));
      await runNotices();
      await runNotices();
      const mails = mailTo(a);
      expect(mails).toHaveLength(1);
      const mail = mails[0]!;
      const notice = await db()
        .selectFrom('notices')
        .select(['id', 'email_state', 'emailed_at'])
        .executeTakeFirstOrThrow();
      expect(notice.email_state).toBe('sent');
      expect(notice.emailed_at?.toISOString()).toBe(START.toISOString());
      expect(mail.parsed.messageId).toBe(`<notice-${notice.id}@localhost>`);
      expect(mail.text).toContain('is due back by');
      expect(mail.text).toContain('http://localhost:3000/userprofile');
      const token = unsubscribeLink(mail);
      expect(token).toBeDefined();
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
      const header = /^List-Unsubscribe: <([^>]+)>/m.exec(mail.raw.replace(/\r\n[ \t]+/g, ' '));
      expect(header?.[1]).toBe(`http://localhost:3000/api/notices/unsubscribe?token=${token}`);
      expect(loanId).toMatch(/^LOAN-/);
      // The due date, as a calendar entry that reminds a day before.
      const [entry] = mail.parsed.attachments;
      expect(entry?.filename).toBe(`due-date-${notice.id}.ics`);
      const ics = entry!.content.toString();
      expect(ics).toContain(`UID:notice-${notice.id}@localhost`);
      expect(ics).toContain('DTEND:20261124T150000Z');
      expect(ics).toContain('TRIGGER:-P1D');
    });

    it('skips the e-mail of a kind turned off, and keeps the notice in the app', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      const put = await a.client.request({
        method: 'PUT',
        url: '/api/users/me/notices',
        payload: { email: { overdue: false } },
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(noticePreferencesSchema.parse(put.json()).email).toEqual({
        hold_offered: true,
        pickup_reminder: true,
        due_soon: true,
        overdue: false,
        request_status: true,
        moderation: true,
        // Off until chosen (decision 042).
        mention: false,
      });
      await loan(a, new Date(START.getTime() - HOUR));
      await loan(b, new Date(START.getTime() - HOUR));
      await runNotices();
      expect(kindsOf((await noticesOf(a)).payload)).toEqual(['overdue']);
      expect(mailTo(a)).toEqual([]);
      expect(mailTo(b)).toHaveLength(1);
      const states = await db().selectFrom('notices').select(['user_id', 'email_state']).execute();
      expect(states.find((row) => row.user_id === a.id)?.email_state).toBe('skipped');
      // The other kinds still come.
      await loan(a, new Date(START.getTime() + DAY));
      await runNotices();
      expect(mailTo(a)).toHaveLength(1);
    });

    it('unsubscribes by the link of an e-mail, from the screen or a mail program', async () => {
      const [a] = people as [SignedInPerson];
      await loan(a, new Date(START.getTime() - HOUR));
      await runNotices();
      const token = decodeURIComponent(unsubscribeLink(mailTo(a)[0]!)!);
      const guest = testApp.app;
      // RFC 8058: the token in the query, no session.
      const oneClick = await guest.inject({
        method: 'POST',
        url: `/api/notices/unsubscribe?token=${encodeURIComponent(token)}`,
      });
      expect(oneClick.statusCode, oneClick.body).toBe(200);
      expect(oneClick.json()).toMatchObject({ success: true, kind: 'overdue' });
      expect(oneClick.json().message).toContain('A loan is overdue');
      // As mail programs send it: a form body, urlencoded or multipart.
      const boundary = 'one-click-boundary';
      for (const [contentType, payload] of [
        ['application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click'],
        [
          `multipart/form-data; boundary=${boundary}`,
          `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
        ],
      ] as const) {
        const form = await guest.inject({
          method: 'POST',
          url: `/api/notices/unsubscribe?token=${encodeURIComponent(token)}`,
          headers: { 'content-type': contentType },
          payload,
        });
        expect(form.statusCode, form.body).toBe(200);
      }
      // No other route takes a form.
      const elsewhere = await a.client.request({
        method: 'POST',
        url: '/api/notices/read',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'all=true',
      });
      expect(elsewhere.statusCode).toBe(415);
      // The screen: the token in the body; doing it again is the same.
      const screen = await guest.inject({
        method: 'POST',
        url: '/api/notices/unsubscribe',
        payload: { token },
      });
      expect(screen.statusCode, screen.body).toBe(200);
      const preferences = noticePreferencesSchema.parse(
        (await a.client.get('/api/users/me/notices')).json(),
      );
      expect(preferences.email.overdue).toBe(false);
      expect(preferences.email.due_soon).toBe(true);
    });

    it('refuses a forged or altered token with 400 and says why', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      const good = unsubscribeToken(TEST_AUTH_SECRET, a.id, 'due_soon');
      const [user, , mac] = good.split('.') as [string, string, string];
      const forged = [
        unsubscribeToken('another secret', a.id, 'due_soon'),
        `${user}.overdue.${mac}`,
        `${Buffer.from(b.id).toString('base64url')}.due_soon.${mac}`,
        `${good}x`,
        'not-a-token',
      ];
      for (const token of forged) {
        const response = await testApp.app.inject({
          method: 'POST',
          url: '/api/notices/unsubscribe',
          payload: { token },
        });
        expect(response.statusCode, token).toBe(400);
        expect(response.json()).toMatchObject({
          success: false,
          message: BAD_UNSUBSCRIBE_TOKEN_MESSAGE,
        });
      }
      const missing = await testApp.app.inject({ method: 'POST', url: '/api/notices/unsubscribe' });
      expect(missing.statusCode).toBe(400);
      expect(await db().selectFrom('notice_preferences').selectAll().execute()).toEqual([]);
    });

    it('in the outbox folder, a notice sent again overwrites its own file', async () => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'digi-notice-outbox-'));
      try {
        const mailer = createMailer(testConfig({ DATA_DIR: dataDir }), testApp.app.log);
        const message = {
          to: 'someone@uni.example',
          subject: 'A notice',
          text: 'Once.',
          messageId: '<notice-42@localhost>',
          headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        };
        await mailer.send(message);
        await mailer.send({ ...message, text: 'Twice.' });
        const folder = outboxDirectory(dataDir);
        expect(await readdir(folder)).toEqual(['notice-42@localhost.eml']);
        const written = await readFile(path.join(folder, 'notice-42@localhost.eml'), 'utf8');
        expect(written).toContain('Twice.');
        expect(written).toContain('Message-ID: <notice-42@localhost>');
        expect(written).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    it('two senders at once send each notice once', async () => {
      const some = people.slice(0, 3);
      for (const person of some) await loan(person, new Date(START.getTime() - HOUR));
      const { findDueNotices } = await import('../../notices/sweep.ts');
      await findDueNotices(db(), clock, { timeZone: TIME_ZONE, libraryName: 'Digi Library' });
      const mailer = createMailer(testApp.config, testApp.app.log);
      const deliver = () =>
        deliverPendingNotices({
          db: db(),
          mailer,
          secret: TEST_AUTH_SECRET,
          publicUrl: testApp.config.publicUrl,
          now: clock,
        });
      const reports = await Promise.all([deliver(), deliver(), deliver()]);
      expect(reports.reduce((sum, report) => sum + report.sent, 0)).toBe(3);
      expect(smtp.messages).toHaveLength(3);
    });

    it('sends again a claim left by a sender that died, once its lease has passed', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      await loan(a, new Date(START.getTime() - HOUR));
      await loan(b, new Date(START.getTime() - HOUR));
      const { findDueNotices } = await import('../../notices/sweep.ts');
      await findDueNotices(db(), clock, { timeZone: TIME_ZONE, libraryName: 'Digi Library' });
      // Both claimed by a process killed before it marked them: one long ago, one just now.
      // Leases go by the database's clock (whatever the app's says), so the claims are set by it.
      await claimNoticesAgo(db(), a.id, 11 * MINUTE);
      await claimNoticesAgo(db(), b.id, MINUTE);
      await runNotices();
      expect([mailTo(a).length, mailTo(b).length]).toEqual([1, 0]);
      // The lease passes for the second.
      await claimNoticesAgo(db(), b.id, EMAIL_CLAIM_LEASE_MS + MINUTE);
      await runNotices();
      expect([mailTo(a).length, mailTo(b).length]).toEqual([1, 1]);
    });
  });

  describe('the bell', () => {
    async function made(person: SignedInPerson, count: number): Promise<void> {
      for (let index = 0; index < count; index += 1)
        await loan(person, new Date(START.getTime() - (index + 1) * HOUR));
      await runNotices();
    }

    it("pages one's own notices newest first and never lists anyone else's", async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      await made(a, 3);
      await made(b, 1);
      const first = await noticesOf(a, '?limit=2');
      expect(first.payload).toHaveLength(2);
      expect([first.unread, first.hasMore]).toEqual([3, true]);
      expect(Number(first.payload[0]!.id)).toBeGreaterThan(Number(first.payload[1]!.id));
      const rest = await noticesOf(a, `?limit=2&before=${first.payload[1]!.id}`);
      expect(rest.payload).toHaveLength(1);
      expect(rest.hasMore).toBe(false);
      const mine = [...first.payload, ...rest.payload].map((notice) => notice.id);
      const theirs = (await noticesOf(b)).payload.map((notice) => notice.id);
      expect(theirs).toHaveLength(1);
      expect(mine).not.toContain(theirs[0]);
      const beyond = await noticesOf(a, '?before=9223372036854775807');
      expect(beyond.payload).toHaveLength(3);
      const outOfRange = await a.client.get('/api/notices?before=9999999999999999999');
      expect(outOfRange.statusCode).toBe(400);
      const bad = await a.client.get('/api/notices?before=nope');
      expect(bad.statusCode).toBe(400);
    });

    it('marks read only the caller’s own notices, some or all', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      await made(a, 3);
      await made(b, 1);
      const mine = (await noticesOf(a)).payload.map((notice) => notice.id);
      const theirs = (await noticesOf(b)).payload[0]!.id;
      const malformed = await a.client.post('/api/notices/read', { ids: [mine[0], 'x'] });
      expect(malformed.statusCode).toBe(400);
      const some = await a.client.post('/api/notices/read', { ids: [mine[0], theirs] });
      expect(some.statusCode, some.body).toBe(200);
      expect(markNoticesReadResponseSchema.parse(some.json())).toEqual({ unread: 2 });
      expect((await noticesOf(b)).unread).toBe(1);
      const listed = (await noticesOf(a)).payload;
      expect(listed.find((notice) => notice.id === mine[0])?.readAt).toBe(START.toISOString());
      const all = await a.client.post('/api/notices/read', { all: true });
      expect(all.json()).toEqual({ unread: 0 });
      expect((await noticesOf(b)).unread).toBe(1);
      const none = await a.client.post('/api/notices/read', {});
      expect(none.statusCode).toBe(400);
    });

    it('tells the person’s sockets the unread count when a notice is made', async () => {
      const [a, b] = people as [SignedInPerson, SignedInPerson];
      const url = await listenOnFreePort(testApp);
      const socket = await connectChat(url, a.client.cookieHeader(), testApp.config.publicUrl);
      const other = await connectChat(url, b.client.cookieHeader(), testApp.config.publicUrl);
      try {
        let otherHeard = false;
        other.on('notices_changed', () => (otherHeard = true));
        const heard = nextEvent(socket, 'notices_changed');
        await made(a, 2);
        expect(await heard).toEqual([{ unread: 2 }]);
        const read = nextEvent(socket, 'notices_changed');
        await a.client.post('/api/notices/read', { all: true });
        expect(await read).toEqual([{ unread: 0 }]);
        expect(otherHeard).toBe(false);
      } finally {
        socket.close();
        other.close();
      }
    });
  });

  describe('request status changes', () => {
    it('tell the requester in the app, on their socket and by e-mail through the queue', async () => {
      const [a] = people as [SignedInPerson];
      const filed = await a.client.post('/api/users/requests', {
        student: 'Ada Lovelace',
        title: 'Notices in Practice',
        resourceType: 'book',
        institutionName: 'Campus University',
      });
      expect(filed.statusCode, filed.body).toBe(200);
      const id = filed.json().request._id as string;
      const url = await listenOnFreePort(testApp);
      const socket = await connectChat(url, a.client.cookieHeader(), testApp.config.publicUrl);
      try {
        const heard = nextEvent(socket, 'notices_changed');
        const moved = await librarian.client.patch(`/api/faculty/requests/${id}`, {
          status: 'accepted',
        });
        expect(moved.statusCode, moved.body).toBe(200);
        expect(await heard).toEqual([{ unread: 1 }]);
      } finally {
        socket.close();
      }
      const { payload } = await noticesOf(a);
      expect(payload.map((notice) => [notice.kind, notice.link, notice.title])).toEqual([
        ['request_status', '/resource-request', 'Your request “Notices in Practice” is accepted'],
      ]);
      // The app's own worker runs the job the change queued.
      const mail = await smtp.waitFor(a.email, { timeoutMs: 10_000 });
      expect(mail.parsed.subject).toBe('Your request “Notices in Practice” is accepted');
      // A refused repeat makes no second notice.
      const again = await librarian.client.patch(`/api/faculty/requests/${id}`, {
        status: 'accepted',
      });
      expect(again.statusCode).toBe(409);
      expect((await noticesOf(a)).payload).toHaveLength(1);
    });
  });

  describe('the job queue', () => {
    it('queues one job per singleton key and window, however many processes send it', async () => {
      const queue = startJobQueue(testApp.database, [], testApp.app.log);
      try {
        const key = `test-${crypto.randomUUID()}`;
        const options = { singletonKey: key, singletonSeconds: 3_600 };
        const first = await queue.send(NOTICES_JOB, {}, options);
        const second = await queue.send(NOTICES_JOB, {}, options);
        expect(first).toEqual(expect.any(String));
        expect(second).toBeNull();
      } finally {
        await queue.stop();
      }
    });

    it('runs a job queued by a process that then stopped, on another (or a restarted) server', async () => {
      const [a] = people as [SignedInPerson];
      await loan(a, new Date(START.getTime() - HOUR));
      // A second app on the same database, stopped at once: what a killed server leaves is a
      // queued job nobody has run. The test app's worker is the "restarted" one.
      const queue = startJobQueue(testApp.database, [], testApp.app.log);
      await queue.send(NOTICES_JOB, {});
      await queue.stop();
      const mail = await smtp.waitFor(a.email, { timeoutMs: 10_000 });
      expect(mail.parsed.subject).toMatch(/is overdue$/);
    });
  });
});
