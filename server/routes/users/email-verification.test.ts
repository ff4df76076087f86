import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '#contract/http/errors.ts';
import {
  EMAIL_NOT_VERIFIED_CODE,
  emailNotVerifiedMessage,
  meResponseSchema,
  registerRequestSchema,
  verificationEmailResponseSchema,
} from '#contract/http/users.ts';
import { createAuth } from '../../auth/auth.ts';
import { completeProviderProfile } from '../../commands/register-user.ts';
import { DEMO_ACCOUNT, seedDemoData } from '../../db/seed.ts';
import { createTestApp, TEST_AUTH_SECRET, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { startTestSmtpServer, type ReceivedMail } from '../../test/mail.ts';
import { connectChat, emitAck, listenOnFreePort } from '../../test/sockets.ts';
import { applyGrant } from '../../users/grants.ts';
import { findUser } from '../../users/store.ts';

/** Monday 23 November 2026, 10:00 in New York: tomorrow's 9:00 slot is open. */
const NOW = new Date('2026-11-23T15:00:00Z');
const SUBJECT = 'Verify your e-mail address for Digi Library';
const LINK = /http:\/\/localhost:3000(\/api\/auth\/verify-email\?token=[^\s]+)/;

const REQUEST = {
  student: 'Ada Lovelace',
  title: 'Introduction to Quantum Computing',
  resourceType: 'book',
  institutionName: 'Campus University',
};

describe.each(testDatabaseKinds())('e-mail verification on %s', (kind) => {
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
  let testApp: TestApp;
  let url: string;
  let book: string;
  const client = () => new TestClient(testApp.app, testApp.config.publicUrl);

  /** Every verification mail to `email` so far. */
  const verificationMails = (email: string) =>
    smtp.messages.filter(
      (message) => message.to.includes(email) && message.parsed.subject === SUBJECT,
    );
  /** The path of the link in the newest verification mail to `email`, once it has arrived. */
  const mailedLink = async (email: string, count = 1): Promise<string> => {
    const deadline = Date.now() + 5_000;
    let mails: ReceivedMail[];
    while ((mails = verificationMails(email)).length < count && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const text = mails.at(-1)?.text ?? '';
    const path = LINK.exec(text)?.[1];
    if (!path) throw new Error(`no verification link to ${email}: ${text}`);
    return path;
  };

  const reserve = (person: SignedInPerson) =>
    person.client.post('/api/users/reservation', {
      book: { id: book },
      reservation: { date: '2026-11-24', timeSlot: '9:00-9:30 AM' },
    });
  const fileRequest = (person: SignedInPerson) =>
    person.client.post('/api/users/requests', REQUEST);
  const me = async (browser: TestClient) =>
    meResponseSchema.parse((await browser.get('/api/users/me')).json()).user;

  /** The refusal an unverified `email` gets, in the error shape with its code. */
  const refusal = (email: string) => ({
    success: false,
    message: emailNotVerifiedMessage(email),
    code: EMAIL_NOT_VERIFIED_CODE,
  });

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    testApp = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, LIBRARY_TIME_ZONE: 'America/New_York' },
      now: () => NOW,
    });
    await seedDemoData(testApp.database.db);
    book = (
      await testApp.database.db
        .selectFrom('items')
        .select('id')
        .where('source_id', '=', 'book-pride-and-prejudice')
        .executeTakeFirstOrThrow()
    ).id;
    url = await listenOnFreePort(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await testApp.database.db.deleteFrom('reservations').execute();
    await testApp.database.db.deleteFrom('rate_limits').execute();
  });

  it('signs a password sign-up in at once and mails it a link; until it is opened, reserving and filing a request are 403', async () => {
    const person = await signedInPerson(testApp, 'student', {}, { verified: false });
    expect(await me(person.client)).toMatchObject({ email: person.email, emailVerified: false });

    const link = await mailedLink(person.email);
    expect(link).toContain('callbackURL=%2Fuserprofile%3Fverified%3Demail');
    const mail = verificationMails(person.email)[0]!;
    expect(mail.text).toContain('Hello Ada Lovelace,');
    expect(mail.text).toContain('within 24 hours');

    // Reading stays open: the lists, the days, the forum's username.
    expect((await person.client.get('/api/users/reservation-books')).statusCode).toBe(200);
    expect((await person.client.get('/api/users/requests')).statusCode).toBe(200);

    for (const response of [await reserve(person), await fileRequest(person)]) {
      expect(response.statusCode).toBe(403);
      expect(errorResponseSchema.parse(response.json())).toEqual(refusal(person.email));
    }
    expect(await testApp.database.db.selectFrom('reservations').selectAll().execute()).toEqual([]);
  });

  it('refuses an unverified account creating a room or sending a message, and lets it once the link is opened', async () => {
    const person = await signedInPerson(testApp, 'student', {}, { verified: false });
    const verified = await signedInPerson(testApp);
    const origin = testApp.config.publicUrl;
    const host = await connectChat(url, verified.client.cookieHeader(), origin);
    const roomName = `Verification ${Date.now()}`;
    expect(await emitAck(host, 'create_room', { roomName, description: '' })).toEqual({ ok: true });

    // The socket connects and may read (join a room); it may not write.
    const socket = await connectChat(url, person.client.cookieHeader(), origin);
    const refused = {
      ok: false,
      message: emailNotVerifiedMessage(person.email),
      code: EMAIL_NOT_VERIFIED_CODE,
    };
    expect(await emitAck(socket, 'create_room', { roomName: `${roomName} 2` })).toEqual(refused);
    expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
    expect(await emitAck(socket, 'send_message', { room: roomName, message: 'Hello' })).toEqual(
      refused,
    );

    // Opened in this browser; the socket, connected before, may write now.
    const opened = await person.client.get(await mailedLink(person.email));
    expect(opened.statusCode).toBe(302);
    expect(await emitAck(socket, 'send_message', { room: roomName, message: 'Hello' })).toEqual({
      ok: true,
      id: expect.any(String),
    });
    expect(await emitAck(socket, 'create_room', { roomName: `${roomName} 2` })).toEqual({
      ok: true,
    });
    socket.close();
    host.close();
  });

  it('the mailed link verifies the address and signs its person in on another device, landing on their home', async () => {
    const person = await signedInPerson(testApp, 'student', {}, { verified: false });
    const link = await mailedLink(person.email);

    const phone = client();
    const opened = await phone.get(link);
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/userprofile?verified=email');
    expect(await me(phone)).toMatchObject({ email: person.email, emailVerified: true });
    // The first browser's session counts it at once too.
    expect(await me(person.client)).toMatchObject({ emailVerified: true });

    expect((await reserve(person)).statusCode).toBe(200);
    expect((await fileRequest(person)).statusCode).toBe(200);

    // Opened again, it changes nothing and signs nobody in.
    const again = client();
    const second = await again.get(link);
    expect(second.statusCode).toBe(302);
    expect(second.headers.location).toBe('/userprofile?verified=email');
    expect(await me(again)).toBeNull();
  });

  it('a faculty sign-up lands on the faculty home; a broken link lands with its error', async () => {
    const person = await signedInPerson(testApp, 'faculty', {}, { verified: false });
    const link = await mailedLink(person.email);
    expect(link).toContain('callbackURL=%2Ffacultyprofile%3Fverified%3Demail');

    const broken = await client().get(link.replace(/token=[^&]+/, 'token=not-a-token'));
    expect(broken.statusCode).toBe(302);
    expect(broken.headers.location).toBe('/facultyprofile?verified=email&error=INVALID_TOKEN');
    expect(await me(person.client)).toMatchObject({ emailVerified: false });
  });

  it('POST /api/users/verification-email mails a new link, a few times an hour', async () => {
    const person = await signedInPerson(testApp, 'student', {}, { verified: false });
    await mailedLink(person.email);

    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const response = await person.client.post('/api/users/verification-email', {});
      statuses.push(response.statusCode);
      if (attempt === 0) {
        expect(verificationEmailResponseSchema.parse(response.json())).toEqual({
          success: true,
          message: `We sent a new link to ${person.email}. It works for 24 hours.`,
        });
      }
      if (attempt === 3) {
        expect(response.json().message).toMatch(/^Too many attempts/);
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    // The sign-up's mail and three more; the newest link works.
    const newest = await mailedLink(person.email, 4);
    expect(verificationMails(person.email)).toHaveLength(4);
    expect((await person.client.get(newest)).statusCode).toBe(302);
    expect(await me(person.client)).toMatchObject({ emailVerified: true });

    // Verified now: it says so and sends nothing, whatever the rate.
    const done = await person.client.post('/api/users/verification-email', {});
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      success: true,
      message: 'Your e-mail address is already verified.',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(verificationMails(person.email)).toHaveLength(4);

    expect((await client().post('/api/users/verification-email', {})).statusCode).toBe(401);
  });

  it('counts provider sign-ups, staff-made accounts and the demo account as verified', async () => {
    // A provider identity completing its profile: a form account turned into a Google one.
    const registration = registrationFactory();
    const browser = client();
    await browser.post('/api/users/register', registration);
    const row = await testApp.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', registration.email.toLowerCase())
      .executeTakeFirstOrThrow();
    await testApp.database.db
      .updateTable('users')
      .set({ profile_completed: false })
      .where('id', '=', row.id)
      .execute();
    await testApp.database.db
      .updateTable('accounts')
      .set({ provider_id: 'google', account_id: 'google-1234' })
      .where('user_id', '=', row.id)
      .execute();
    await completeProviderProfile(
      testApp,
      (await findUser(testApp.database.db, row.id))!,
      registerRequestSchema.parse(
        registrationFactory({ email: registration.email, signupMethod: 'google' }),
      ),
    );
    expect(await findUser(testApp.database.db, row.id)).toMatchObject({
      signup_method: 'google',
      email_verified: true,
    });

    // `npm run user:create` while the server runs (a grant), and the demo chat account.
    const auth = createAuth({
      config: testApp.config,
      database: testApp.database,
      secret: TEST_AUTH_SECRET,
      trustedOrigins: [],
    });
    await applyGrant(testApp.database.db, auth, {
      id: 'grant-1',
      email: 'new.librarian@uni.example',
      role: 'librarian',
      firstName: 'Nia',
      lastName: 'Desk',
      passwordHash: 'not-used-here',
    });
    for (const email of ['new.librarian@uni.example', DEMO_ACCOUNT.email]) {
      const account = await testApp.database.db
        .selectFrom('users')
        .select('email_verified')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(account.email_verified, email).toBe(true);
    }
  });
});
