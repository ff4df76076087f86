import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkUserResponseSchema,
  loginResponseSchema,
  meResponseSchema,
  registerResponseSchema,
} from '#contract/http/users.ts';
import { errorResponseSchema } from '#contract/http/errors.ts';
import { SIGN_IN_THROTTLE } from '../../http/sign-in-throttle.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory } from '../../test/factories.ts';
import { setCookies, TestClient } from '../../test/http.ts';
import { statementsOf } from '../../test/statements.ts';
import { CHECK_USER_RATES } from './index.ts';

const SESSION_COOKIE = 'digi.session_token';

describe.each(testDatabaseKinds())('account calls on %s', (kind) => {
  let testApp: TestApp;
  const client = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
  });
  afterAll(async () => testApp.close());

  describe('POST /api/users/register', () => {
    it('creates a student with the whole profile and signs them in', async () => {
      const browser = client();
      const registration = registrationFactory();
      const response = await browser.post('/api/users/register', registration);
      expect(response.statusCode).toBe(200);
      expect(registerResponseSchema.parse(response.json())).toEqual({
        success: true,
        user: { role: 'student' },
        message: 'Registration successful',
      });
      const cookie = setCookies(response).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).not.toMatch(/Secure/i);

      const me = meResponseSchema.parse((await browser.get('/api/users/me')).json());
      expect(me.user).toMatchObject({
        email: registration.email,
        firstName: 'Ada',
        lastName: 'Lovelace',
        role: 'student',
        phoneNumber: '+1 555 010 2000',
        institutionName: 'Campus University',
        department: 'Mathematics',
        studentId: 'S-1001',
        graduationYear: 2027,
        academicProfile: { fields: ['Mathematics', 'Computing'], interests: ['Engines'] },
        signupMethod: 'form',
        profileCompleted: true,
      });
    });

    it('creates a faculty member who lands as faculty', async () => {
      const response = await client().post(
        '/api/users/register',
        registrationFactory({ role: 'faculty', studentId: undefined, graduationYear: undefined }),
      );
      expect(response.json()).toMatchObject({ success: true, user: { role: 'faculty' } });
    });

    it('answers 400 "User already exists" for a known e-mail, whatever its case and spacing', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      const again = await client().post('/api/users/register', {
        ...registration,
        email: ` ${registration.email.toUpperCase()} `,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ success: false, message: 'User already exists' });
    });

    it('names every invalid field', async () => {
      const response = await client().post('/api/users/register', {
        ...registrationFactory(),
        firstName: '  ',
        email: 'not-an-email',
        password: 'short',
        phoneNumber: 'call me',
        graduationYear: 2031,
        role: 'librarian',
      });
      expect(response.statusCode).toBe(400);
      const body = errorResponseSchema.parse(response.json());
      const byPath = Object.fromEntries(
        (body.errors ?? []).map((error) => [error.path, error.message]),
      );
      expect(byPath).toMatchObject({
        firstName: 'First name is required',
        email: 'Enter a valid e-mail address',
        phoneNumber: 'Enter a valid phone number',
        graduationYear: 'Graduation year must be between 2023 and 2030',
        role: 'Choose student or faculty',
        password: 'Password must be at least 8 characters',
      });
    });

    it('refuses a common password, one built on the name, and an overlong one', async () => {
      const common = await client().post(
        '/api/users/register',
        registrationFactory({ password: 'Password123' }),
      );
      expect(common.statusCode).toBe(400);
      expect(common.json().errors).toEqual([
        {
          path: 'password',
          message: expect.stringMatching(/too easy to guess\. This is a commonly used password\./),
        },
      ]);
      const named = await client().post(
        '/api/users/register',
        registrationFactory({
          firstName: 'Ada',
          lastName: 'Lovelace',
          password: 'AdaLovelace1815',
        }),
      );
      expect(named.statusCode).toBe(400);
      expect(named.json().errors).toEqual([
        { path: 'password', message: expect.stringMatching(/your name, your e-mail/) },
      ]);
      const long = await client().post(
        '/api/users/register',
        registrationFactory({ password: 'x'.repeat(129) }),
      );
      expect(long.statusCode).toBe(400);
      expect(long.json().errors[0]).toMatchObject({
        path: 'password',
        message: 'Password must be at most 128 characters',
      });
    });

    it('never lets a client choose its role beyond student or faculty, or set server fields', async () => {
      const browser = client();
      await browser.post('/api/users/register', {
        ...registrationFactory(),
        emailVerified: true,
        profileCompleted: false,
        signup_method: 'command',
        role_override: 'librarian',
      });
      const me = meResponseSchema.parse((await browser.get('/api/users/me')).json());
      expect(me.user?.role).toBe('student');
      expect(me.user?.signupMethod).toBe('form');
    });

    it('never returns a password or its hash', async () => {
      const browser = client();
      const registration = registrationFactory();
      const response = await browser.post('/api/users/register', registration);
      const me = await browser.get('/api/users/me');
      for (const body of [response.body, me.body]) {
        expect(body).not.toContain(registration.password);
        expect(body).not.toMatch(/password|scrypt|hash/i);
      }
    });
  });

  describe('completing a provider profile', () => {
    it('needs a signed-in provider identity: a guest gets 401, a finished account 400', async () => {
      const guest = await client().post(
        '/api/users/register',
        registrationFactory({ signupMethod: 'google', password: undefined }),
      );
      expect(guest.statusCode).toBe(401);
      const browser = client();
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      const again = await browser.post('/api/users/register', {
        ...registration,
        signupMethod: 'oidc',
        password: undefined,
      });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toBe('User already exists');
    });

    it('a form sign-up without a password is refused', async () => {
      const response = await client().post(
        '/api/users/register',
        registrationFactory({ password: undefined }),
      );
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { path: 'password', message: 'Password is required' },
      ]);
    });
  });

  describe('POST /api/users/check-user', () => {
    it('says whether an account exists, and its role', async () => {
      const registration = registrationFactory({ role: 'faculty' });
      await client().post('/api/users/register', registration);
      const known = await client().post('/api/users/check-user', {
        email: registration.email.toUpperCase(),
      });
      expect(checkUserResponseSchema.parse(known.json())).toEqual({
        exists: true,
        payload: { role: 'faculty' },
      });
      const unknown = await client().post('/api/users/check-user', { email: 'nobody@uni.example' });
      expect(unknown.json()).toEqual({ exists: false });
    });

    it('limits checks of one e-mail', async () => {
      const { limit } = CHECK_USER_RATES.email;
      const statuses = [];
      let last;
      for (let attempt = 0; attempt <= limit; attempt += 1) {
        // Each from an address of its own: only the e-mail's budget is spent.
        last = await client().post('/api/users/check-user', { email: 'probe@uni.example' });
        statuses.push(last.statusCode);
      }
      expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
      expect(statuses[limit]).toBe(429);
      expect(last!.json().message).toBe('Too many attempts. Please try again in 15 minutes.');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('limits checks from one address, whatever the e-mails', async () => {
      const { limit } = CHECK_USER_RATES.address;
      const browser = client();
      const statuses = [];
      for (let attempt = 0; attempt <= limit; attempt += 1) {
        const email = `probe${attempt}.${Date.now()}@uni.example`;
        statuses.push((await browser.post('/api/users/check-user', { email })).statusCode);
      }
      expect(statuses.slice(0, limit).every((status) => status === 200)).toBe(true);
      expect(statuses[limit]).toBe(429);
      // Another address still has its own budget.
      const other = await client().post('/api/users/check-user', { email: 'x@uni.example' });
      expect(other.statusCode).toBe(200);
    });

    it('does the same database work whether the account exists or not', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      const known = await statementsOf(() =>
        client().post('/api/users/check-user', { email: registration.email }),
      );
      const unknown = await statementsOf(() =>
        client().post('/api/users/check-user', { email: 'nobody.else@uni.example' }),
      );
      expect(known.result.json().exists).toBe(true);
      expect(unknown.result.json().exists).toBe(false);
      expect(unknown.statements).toBe(known.statements);
    });

    it('refuses a malformed e-mail', async () => {
      const response = await client().post('/api/users/check-user', { email: 'nope' });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('POST /api/users/login', () => {
    it('signs in, answering the role; a session cookie lasts the browser session without Remember me', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      const browser = client();
      const response = await browser.post('/api/users/login', {
        email: registration.email,
        password: registration.password,
      });
      expect(loginResponseSchema.parse(response.json())).toEqual({
        success: true,
        payload: { role: 'student' },
        message: 'Login successful',
      });
      const cookie = setCookies(response).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toBeDefined();
      expect(cookie).not.toMatch(/Max-Age|Expires/i);
      expect((await browser.get('/api/users/me')).statusCode).toBe(200);
    });

    it('keeps the session for 30 days with Remember me', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      const response = await client().post('/api/users/login', {
        email: registration.email,
        password: registration.password,
        rememberMe: true,
      });
      const cookie = setCookies(response).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toMatch(new RegExp(`Max-Age=${30 * 24 * 60 * 60}`));
    });

    it('answers "Invalid credentials" alike for a wrong password and an unknown e-mail', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      const wrong = await client().post('/api/users/login', {
        email: registration.email,
        password: 'not the password',
      });
      const unknown = await client().post('/api/users/login', {
        email: 'ghost@uni.example',
        password: 'not the password',
      });
      for (const response of [wrong, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ success: false, message: 'Invalid credentials' });
        expect(setCookies(response).some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(
          false,
        );
      }
    });

    it('gives a new session cookie at every sign-in', async () => {
      const registration = registrationFactory();
      const browser = client();
      await browser.post('/api/users/register', registration);
      const first = browser.cookies.get(SESSION_COOKIE);
      await browser.post('/api/users/login', {
        email: registration.email,
        password: registration.password,
      });
      expect(browser.cookies.get(SESSION_COOKIE)).not.toBe(first);
    });
  });

  describe('POST /api/users/signin', () => {
    it("answers the signed-in user's own summary", async () => {
      const browser = client();
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      const response = await browser.post('/api/users/signin', { email: registration.email });
      expect(response.json()).toEqual({
        success: true,
        payload: {
          role: 'student',
          email: registration.email,
          firstName: 'Ada',
          phoneNumber: '+1 555 010 2000',
        },
      });
    });

    it('refuses to look up anyone else, and guests', async () => {
      const other = registrationFactory();
      await client().post('/api/users/register', other);
      const browser = client();
      await browser.post('/api/users/register', registrationFactory());
      const response = await browser.post('/api/users/signin', { email: other.email });
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain(other.phoneNumber);
      const guest = await client().post('/api/users/signin', { email: other.email });
      expect(guest.statusCode).toBe(401);
    });

    it('answers a signed-in identity whose profile is not complete, which other calls refuse', async () => {
      const browser = client();
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      // As a provider sign-in is until its profile is completed.
      await testApp.database.db
        .updateTable('users')
        .set({ profile_completed: false })
        .where('email', '=', registration.email.toLowerCase())
        .execute();
      const response = await browser.post('/api/users/signin', { email: registration.email });
      expect(response.json()).toEqual({ success: false, message: 'User not found in system' });
      const requests = await browser.get('/api/users/requests');
      expect(requests.statusCode).toBe(403);
      expect(requests.json()).toEqual({
        success: false,
        message: 'Please complete your academic profile first.',
      });
    });
  });

  describe('sign-out and the session', () => {
    it('POST /api/users/logout ends the session on the server: the old cookie no longer works', async () => {
      const browser = client();
      await browser.post('/api/users/register', registrationFactory());
      const oldCookie = `${SESSION_COOKIE}=${browser.cookies.get(SESSION_COOKIE)}`;
      const response = await browser.post('/api/users/logout', {});
      expect(response.json()).toEqual({ success: true });
      expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
      const replay = await testApp.app.inject({
        url: '/api/users/me',
        headers: { cookie: oldCookie },
      });
      expect(replay.json()).toEqual({ user: null });
      const lookup = await testApp.app.inject({
        method: 'POST',
        url: '/api/users/signin',
        payload: { email: 'x@y.example' },
        headers: { cookie: oldCookie },
      });
      expect(lookup.statusCode).toBe(401);
    });

    it('GET /api/users/me answers no user for a guest and for a forged cookie', async () => {
      expect((await client().get('/api/users/me')).json()).toEqual({ user: null });
      const forged = await testApp.app.inject({
        url: '/api/users/me',
        headers: { cookie: `${SESSION_COOKIE}=forged.value` },
      });
      expect(forged.statusCode).toBe(200);
      expect(forged.json()).toEqual({ user: null });
    });

    it('rolls a session forward while it is used', async () => {
      const browser = client();
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      await browser.post('/api/users/login', { ...registration, rememberMe: true });
      const user = await testApp.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', registration.email)
        .executeTakeFirstOrThrow();
      // Make the remembered session two days old: it is due to roll forward.
      const aged = new Date(Date.now() + 28 * 86_400_000);
      await testApp.database.db
        .updateTable('sessions')
        .set({ expires_at: aged })
        .where('user_id', '=', user.id)
        .execute();
      const response = await browser.get('/api/users/me');
      expect(response.json().user.email).toBe(registration.email);
      const sessions = await testApp.database.db
        .selectFrom('sessions')
        .select('expires_at')
        .where('user_id', '=', user.id)
        .execute();
      const latest = Math.max(...sessions.map((session) => new Date(session.expires_at).getTime()));
      expect(latest).toBeGreaterThan(Date.now() + 29.9 * 86_400_000);
      const cookie = setCookies(response).find((line) => line.startsWith(`${SESSION_COOKIE}=`));
      expect(cookie).toMatch(/Max-Age=2592000/);
    });

    it('logging out without a session is harmless', async () => {
      expect((await client().post('/api/users/logout', {})).json()).toEqual({ success: true });
    });

    it('knows who asks in one statement (none for a guest) and forgets a deleted account at once', async () => {
      const browser = client();
      const registration = registrationFactory();
      await browser.post('/api/users/register', registration);
      const me = await statementsOf(() => browser.get('/api/users/me'));
      expect(me.statements).toBe(1);
      expect(me.result.json().user).toMatchObject({
        email: registration.email,
        firstName: registration.firstName,
        department: registration.department,
      });
      expect((await statementsOf(() => client().get('/api/users/me'))).statements).toBe(0);
      await testApp.database.db
        .deleteFrom('users')
        .where('email', '=', registration.email)
        .execute();
      expect((await browser.get('/api/users/me')).json()).toEqual({ user: null });
    });
  });

  describe('abuse', () => {
    it('slows wrong passwords from one address with 429 and says when to retry, even across a restart', async () => {
      const registration = registrationFactory();
      await client().post('/api/users/register', registration);
      // The sign-in throttle (server/http/sign-in-throttle.ts) keys an e-mail and an address.
      const attacker = client();
      const wrong = () =>
        attacker.post('/api/users/login', {
          email: registration.email,
          password: 'wrong password!',
        });
      for (let attempt = 0; attempt < SIGN_IN_THROTTLE.freeFailures; attempt += 1)
        expect((await wrong()).statusCode).toBe(401);
      // Three waits pass (the clock moves on), each followed by another failure: the wait grows.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        await testApp.database.db
          .updateTable('sign_in_throttles')
          .set({ next_attempt_at: sql<Date>`now()` })
          .where('address', '=', attacker.ip)
          .execute();
        expect((await wrong()).statusCode).toBe(401);
      }
      const last = await wrong();
      expect(last.statusCode).toBe(429);
      expect(last.json().message).toMatch(
        /^Too many attempts\. Please try again in \d+ seconds?\.$/,
      );
      expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);

      // Counters live in the database: a new server process on it still refuses.
      const { buildApp } = await import('../../app.ts');
      const restarted = await buildApp({
        config: testApp.config,
        database: testApp.database,
        webRoot: '/nonexistent',
      });
      try {
        const response = await restarted.inject({
          method: 'POST',
          url: '/api/users/login',
          remoteAddress: attacker.ip,
          payload: { email: registration.email, password: registration.password },
        });
        expect(response.statusCode).toBe(429);
      } finally {
        await restarted.close();
      }
    });

    it('refuses a state-changing call from another site', async () => {
      const response = await client().post(
        '/api/users/check-user',
        { email: 'a@b.example' },
        { origin: 'https://evil.example' },
      );
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        success: false,
        message: 'Requests from other sites are not allowed.',
      });
    });
  });
});

describe('accounts under configuration', () => {
  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const testApp = await createTestApp('pglite', {
      env: { PUBLIC_URL: 'https://library.example.edu' },
    });
    try {
      const response = await new TestClient(testApp.app, 'https://library.example.edu').post(
        '/api/users/register',
        registrationFactory(),
      );
      const cookie = setCookies(response).find((line) => line.includes('session_token='));
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    } finally {
      await testApp.close();
    }
  });

  it('a faculty sign-up outside FACULTY_EMAIL_DOMAINS is a student until a librarian approves', async () => {
    const testApp = await createTestApp('pglite', {
      env: { FACULTY_EMAIL_DOMAINS: 'uni.edu, staff.college.edu' },
    });
    try {
      const client = new TestClient(testApp.app, testApp.config.publicUrl);
      const outside = await client.post(
        '/api/users/register',
        registrationFactory({ role: 'faculty', email: 'prof@gmail.example' }),
      );
      // Decision 025: the answer's role is the one it has now, so the client lands at home.
      expect(outside.json()).toMatchObject({ success: true, user: { role: 'student' } });
      expect((await client.get('/api/faculty/get-req')).statusCode).toBe(403);
      // The student home tells them they are waiting.
      expect((await client.get('/api/users/me')).json().user).toMatchObject({
        role: 'student',
        facultyRequest: 'waiting',
      });
      const inside = await client.post(
        '/api/users/register',
        registrationFactory({ role: 'faculty', email: 'prof@maths.uni.edu' }),
      );
      expect(inside.json()).toMatchObject({ success: true, user: { role: 'faculty' } });
      expect((await client.get('/api/users/me')).json().user.facultyRequest).toBeUndefined();
      const student = await client.post(
        '/api/users/register',
        registrationFactory({ role: 'student', email: 'kid@gmail.example' }),
      );
      expect(student.json()).toMatchObject({ success: true, user: { role: 'student' } });
    } finally {
      await testApp.close();
    }
  });
});
