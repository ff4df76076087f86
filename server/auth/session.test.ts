import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { testConfig } from '../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { statementsOf } from '../test/statements.ts';
import { findUser } from '../users/store.ts';
import { createAuth, type Auth } from './auth.ts';
import { readSession } from './session.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;

describe.each(testDatabaseKinds())('readSession on %s', (kind) => {
  let database: DatabaseHandle;
  let auth: Auth;
  let count = 0;

  /** A new account, signed in (remembered unless `rememberMe` is false); its cookie header. */
  async function signedIn(rememberMe = true) {
    count += 1;
    const email = `reader${count}@uni.example`;
    await auth.api.signUpEmail({ body: { email, password: PASSWORD, name: 'Ada Lovelace' } });
    const { headers, response } = await auth.api.signInEmail({
      body: { email, password: PASSWORD, rememberMe },
      returnHeaders: true,
    });
    const cookie = headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    return { cookie, id: response.user.id };
  }

  const read = (cookie: string | undefined) =>
    statementsOf(() =>
      readSession({ auth, database }, cookie, () => new Headers(cookie ? { cookie } : {})),
    );
  /** better-auth's own answer for the same cookie. */
  const betterAuth = (cookie: string) => auth.api.getSession({ headers: new Headers({ cookie }) });
  const setSessionEnd = (id: string, end: Date) =>
    database.db
      .updateTable('sessions')
      .set({ expires_at: end })
      .where('user_id', '=', id)
      .execute();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    auth = createAuth({
      config: testConfig(),
      database,
      secret: 'x'.repeat(48),
      trustedOrigins: [],
    });
  });
  afterAll(async () => database.close());

  it('reads the session and our whole users row in one statement, as better-auth finds them', async () => {
    const { cookie, id } = await signedIn();
    // Every kind of column of ours: text, a number, arrays, a boolean, a nullable text.
    await database.db
      .updateTable('users')
      .set({
        first_name: 'Ada',
        graduation_year: 2027,
        academic_fields: ['Mathematics', 'Computing'],
        profile_completed: true,
        chat_username: 'ada',
      })
      .where('id', '=', id)
      .execute();
    const { result, statements } = await read(cookie);
    expect(statements).toBe(1);
    expect(result).toEqual({
      signedIn: {
        sessionId: (await betterAuth(cookie))!.session.id,
        user: await findUser(database.db, id),
      },
    });
  });

  it('costs a guest nothing', async () => {
    expect(await read(undefined)).toEqual({ result: { signedIn: null }, statements: 0 });
    expect(await read('theme=dark')).toEqual({ result: { signedIn: null }, statements: 0 });
  });

  it('never rolls a browser session (no Remember me) forward, in one statement too', async () => {
    const { cookie, id } = await signedIn(false);
    expect(cookie).toMatch(/dont_remember=/);
    const { result, statements } = await read(cookie);
    expect(statements).toBe(1);
    expect(result.signedIn?.user.id).toBe(id);
    expect(result.headers).toBeUndefined();
  });

  it('leaves a session due to roll forward to better-auth, which refreshes it and its cookie', async () => {
    const { cookie, id } = await signedIn();
    await setSessionEnd(id, new Date(Date.now() + 28 * DAY));
    const { result } = await read(cookie);
    expect(result.signedIn?.user.id).toBe(id);
    expect(result.headers?.getSetCookie().join()).toMatch(/session_token=.*Max-Age=2592000/);
    // Signing up signed in too: of the account's two sessions, the one in use rolled forward.
    const sessions = await database.db
      .selectFrom('sessions')
      .select('expires_at')
      .where('user_id', '=', id)
      .execute();
    const latest = Math.max(...sessions.map((session) => session.expires_at.getTime()));
    expect(latest).toBeGreaterThan(Date.now() + 29.9 * DAY);
  });

  it('refuses at once an ended session, a signed-out one, a deleted account and a forged cookie', async () => {
    const ended = await signedIn();
    await setSessionEnd(ended.id, new Date(Date.now() - 1000));
    const endedRead = await read(ended.cookie);
    expect(endedRead.result.signedIn).toBeNull();
    // better-auth clears the cookie of a session that has ended.
    expect(endedRead.result.headers?.getSetCookie().join()).toMatch(/session_token=;/);

    const signedOut = await signedIn();
    await auth.api.signOut({ headers: new Headers({ cookie: signedOut.cookie }) });
    expect((await read(signedOut.cookie)).result.signedIn).toBeNull();

    const deleted = await signedIn();
    await database.db.deleteFrom('users').where('id', '=', deleted.id).execute();
    expect((await read(deleted.cookie)).result.signedIn).toBeNull();

    const forged = await signedIn();
    const tampered = forged.cookie.replace(/session_token=([^;.]+)/, 'session_token=$1x');
    expect((await read(tampered)).result.signedIn).toBeNull();
    expect(await betterAuth(tampered)).toBeNull();
  });
});
