import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '#contract/http/users.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { seedDemoData } from '../db/seed.ts';
import { reservableDates } from '../reservations/calendar.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson } from '../test/factories.ts';
import { TestClient } from '../test/http.ts';
import { FOREIGN_ORIGIN_MESSAGE, JSON_ONLY_MESSAGE, wrongAddressMessage } from './csrf.ts';
import { allowedOrigins, loopbackAliases } from './origins.ts';

// Issue 9: "state-changing calls from a foreign Origin or with a non-JSON body are refused; no GET
// changes data." Every route comes from `app.apiRoutes`, so a new route is covered without a word.

/**
 * What changes without any call changing data, left out of the comparison:
 * - `chat_servers.seen_at`: each process's heartbeat, written by a timer every 10 s, not by a call.
 * - `sessions.updated_at` and `sessions.expires_at`: better-auth rolls a session forward (30 days
 *   from now) on the first call of each day it is used, GET included; that is the rolling session
 *   the person signed in for, not their data.
 * - `auth_rate_limits`, the whole table: better-auth counts every call it serves, GET included, by
 *   address and path, so that guessing a reset token with GETs is throttled too. A counter of
 *   calls, not data; our own `rate_limits` counts no GET and stays in the comparison.
 * - `insight_events` is not written at all here (the app runs with `background: false`): a search
 *   is counted for the library's insights by a timer, a record of calls too, tested on its own.
 */
const VOLATILE: Record<string, readonly string[] | 'all'> = {
  chat_servers: ['seen_at'],
  sessions: ['updated_at', 'expires_at'],
  auth_rate_limits: 'all',
};

/** Every table's row count and a checksum of its rows (minus VOLATILE columns). */
async function snapshot(database: DatabaseHandle): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name
  `.execute(database.db);
  const result: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const volatile = VOLATILE[name] ?? [];
    if (volatile === 'all') continue;
    const dropped = volatile.map((column) => ` - '${column}'`).join('');
    const { rows } = await sql<{ count: number; sum: string | null }>`
      SELECT count(*)::int AS count, md5(string_agg(r, '|' ORDER BY r)) AS sum
      FROM (SELECT (to_jsonb(t)${sql.raw(dropped)})::text AS r FROM ${sql.table(name)} t) s
    `.execute(database.db);
    result[name] = `${rows[0]!.count} rows, ${rows[0]!.sum ?? 'empty'}`;
  }
  return result;
}

const STATE_CHANGING = /^(POST|PUT|PATCH|DELETE) /;
const ANY_ID = '00000000-0000-4000-8000-000000000000';

/** A concrete URL for a route pattern: any id, a better-auth endpoint for the wildcard. */
const concrete = (pattern: string, wildcard: string) =>
  pattern.replace(/:[A-Za-z]+/g, ANY_ID).replace('*', wildcard);

/** Bodies an HTML form or a no-cors fetch on another site can send without asking first. */
const FORM_BODIES: { name: string; headers: Record<string, string>; payload: string }[] = [
  {
    name: 'text/plain holding JSON',
    headers: { 'content-type': 'text/plain' },
    payload: '{"status":"accepted"}',
  },
  {
    name: 'text/plain, empty',
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    payload: '',
  },
  {
    name: 'an urlencoded form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'status=accepted&email=a%40b.example',
  },
  {
    name: 'an empty urlencoded form',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  },
  {
    name: 'a multipart form',
    headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    payload:
      '--XyZ\r\nContent-Disposition: form-data; name="status"\r\n\r\naccepted\r\n--XyZ--\r\n',
  },
  {
    name: 'a body with no content type',
    headers: {},
    payload: '{"status":"accepted"}',
  },
  {
    name: 'JSON hidden behind another media type',
    headers: { 'content-type': 'text/plain; application/json' },
    payload: '{"status":"accepted"}',
  },
];

describe.each(testDatabaseKinds())('cross-site request forgery on %s', (kind) => {
  let testApp: TestApp;
  let routes: string[];
  const callers = {} as Record<'guest' | Role, TestClient>;

  beforeAll(async () => {
    // No timers writing while the calls run: on a loaded machine this file outlasts the minute
    // sweeper, which expires the lapsed hold below and embeds the items (failed CI once).
    testApp = await createTestApp(kind, { background: false });
    await seedDemoData(testApp.database.db);
    callers.guest = new TestClient(testApp.app, testApp.config.publicUrl);
    for (const role of ['student', 'faculty', 'librarian'] as const)
      callers[role] = (await signedInPerson(testApp, role)).client;
    routes = [...new Set(testApp.app.apiRoutes)].sort();
  });
  afterAll(async () => testApp.close());

  const stateChanging = () => routes.filter((route) => STATE_CHANGING.test(route));
  /** The media type a route takes a file as (an import), if it declares one. */
  const uploadType = (route: string) =>
    testApp.app.declaredRoutes.find((declared) => declared.route === route)?.declaration.upload
      ?.contentType;

  /** The form media types a route takes beside JSON (a one-click unsubscribe), if any. */
  const formTypes = (route: string) =>
    testApp.app.declaredRoutes.find((declared) => declared.route === route)?.declaration.formBody;

  it('finds the state-changing routes', () => {
    expect(stateChanging().length).toBeGreaterThanOrEqual(15);
    expect(stateChanging()).toContain('POST /api/auth/*');
  });

  it('refuses every state-changing call from a foreign Origin with 403, changing nothing', async () => {
    const before = await snapshot(testApp.database);
    for (const route of stateChanging()) {
      const [method, pattern] = route.split(' ') as [string, string];
      for (const origin of ['https://evil.example', 'null', 'http://localhost:5173']) {
        const response = await callers.librarian.request({
          method: method as 'POST',
          url: concrete(pattern, 'sign-out'),
          headers: { origin },
          payload: { status: 'accepted' },
        });
        expect(response.statusCode, `${route} from ${origin}`).toBe(403);
        expect(response.json()).toEqual({ success: false, message: FOREIGN_ORIGIN_MESSAGE });
      }
    }
    expect(await snapshot(testApp.database)).toEqual(before);
  });

  it('refuses every state-changing call whose body is not JSON with 415, changing nothing', async () => {
    const before = await snapshot(testApp.database);
    for (const route of stateChanging()) {
      const [method, pattern] = route.split(' ') as [string, string];
      for (const body of FORM_BODIES) {
        const response = await callers.librarian.request({
          method: method as 'POST',
          url: concrete(pattern, 'sign-out'),
          headers: body.headers,
          payload: body.payload,
        });
        // A mail program's one-click unsubscribe sends a form; its signed token is its authority
        // (and without one it is refused, changing nothing, as the snapshot below checks).
        const mediaType = body.headers['content-type']?.split(';')[0];
        if (mediaType !== undefined && formTypes(route)?.includes(mediaType)) {
          expect(response.statusCode, `${route} with ${body.name}`).toBe(400);
          continue;
        }
        expect(response.statusCode, `${route} with ${body.name}`).toBe(415);
        const upload = uploadType(route);
        expect(response.json()).toEqual({
          success: false,
          message: upload ? `Send the file as ${upload}.` : JSON_ONLY_MESSAGE,
        });
      }
    }
    // The router matches a percent-encoded path too; so does the refusal.
    const encoded = await callers.librarian.request({
      method: 'POST',
      url: '/%61pi/users/logout',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect([404, 415]).toContain(encoded.statusCode);
    expect(await snapshot(testApp.database)).toEqual(before);
  });

  it('still takes what the web app sends: JSON (a file to an upload), and no body at all', async () => {
    for (const route of stateChanging()) {
      const [method, pattern] = route.split(' ') as [string, string];
      const url = concrete(pattern, 'sign-in/email');
      // A fresh person each time: some of these calls sign out.
      const { client } = await signedInPerson(testApp, 'student');
      const upload = uploadType(route);
      const json = await client.request({
        method: method as 'POST',
        url,
        headers: { 'content-type': upload ?? 'application/json; charset=utf-8' },
        payload: JSON.stringify({}),
      });
      const bodiless = await client.request({ method: method as 'POST', url });
      for (const [what, response] of [
        ['JSON', json],
        ['no body', bodiless],
      ] as const) {
        // Refused for other reasons (a role, a missing field) is fine; by the guard it is not.
        expect(response.statusCode, `${route} with ${what}`).not.toBe(415);
        expect(response.body, `${route} with ${what}`).not.toContain(FOREIGN_ORIGIN_MESSAGE);
      }
    }
  });

  it('no GET changes data, for a guest or anyone signed in', async () => {
    const db = testApp.database.db;
    // Something of everyone's to read: a request, a reservation, and a hold that has lapsed but
    // that the sweeper has not expired yet (a read must not expire it either).
    const student = callers.student;
    expect(
      (
        await student.post('/api/users/requests', {
          student: 'Ada Lovelace',
          title: 'Quantum Computing: An Applied Approach',
          resourceType: 'book',
          institutionName: 'Campus University',
        })
      ).statusCode,
    ).toBe(200);
    const books = await db.selectFrom('items').select(['id', 'source_id']).execute();
    const bookId = (sourceId: string) => books.find((book) => book.source_id === sourceId)!.id;
    const tomorrow = reservableDates(new Date(), testApp.config.library.timeZone)[1]!;
    expect(
      (
        await student.post('/api/users/reservation', {
          book: { id: bookId('book-pride-and-prejudice') },
          reservation: { date: tomorrow, timeSlot: '9:00-9:30 AM' },
        })
      ).statusCode,
    ).toBe(200);
    const someone = await signedInPerson(testApp, 'student');
    await db
      .insertInto('reservations')
      .values({
        user_id: someone.id,
        item_id: bookId('book-frankenstein'),
        pickup_date: '2020-01-06',
        time_slot: '9:00-9:30 AM',
        slot_starts_at: new Date(Date.now() - 3 * 86_400_000),
        expires_at: new Date(Date.now() - 2 * 86_400_000),
      })
      .execute();
    const withPages = await db
      .selectFrom('items')
      .select('id')
      .where('page_count', '>', 0)
      .executeTakeFirstOrThrow();

    // Query strings the routes need to do real work; better-auth's GET endpoints by name.
    const QUERIES: Record<string, string> = {
      'GET /api/search': '?q=pride&type=book',
      'GET /api/items/:id/pages': '?page=1',
      'GET /api/users/requests/similar': '?title=quantum',
      'GET /api/faculty/get-req': '?status=pending',
      'GET /api/desk/pickups': `?date=${tomorrow}`,
    };
    const AUTH_GETS = [
      'get-session',
      'list-sessions',
      'list-accounts',
      'ok',
      'error',
      'reset-password/not-a-real-token?callbackURL=%2Fforgot-password',
      'verify-email?token=not-a-real-token',
    ];
    const gets = routes.filter((route) => route.startsWith('GET '));
    expect(gets.length).toBeGreaterThanOrEqual(15);

    const before = await snapshot(testApp.database);
    for (const route of gets) {
      const pattern = route.slice('GET '.length);
      const urls = pattern.endsWith('*')
        ? AUTH_GETS.map((endpoint) => pattern.replace('*', endpoint))
        : [pattern.replace(/:id\b/, withPages.id) + (QUERIES[route] ?? '')];
      for (const [who, client] of Object.entries(callers)) {
        for (const url of urls) {
          const response = await client.get(url);
          expect(response.statusCode, `${who} ${url}: ${response.body}`).toBeLessThan(500);
        }
      }
    }
    expect(await snapshot(testApp.database)).toEqual(before);
  });
});

// Issue 17: the server listens on 127.0.0.1 and people open whichever address they see first.
describe('a page opened at another loopback address of this server', () => {
  it('knows the other spellings of a loopback public URL, and none of a public one', () => {
    expect(loopbackAliases('http://localhost:3000')).toEqual([
      'http://127.0.0.1:3000',
      'http://[::1]:3000',
    ]);
    expect(loopbackAliases('http://127.0.0.1:8080/')).toEqual([
      'http://localhost:8080',
      'http://[::1]:8080',
    ]);
    expect(loopbackAliases('https://library.uni.example')).toEqual([]);
  });

  it('is served while developing: forms and sign-in work from 127.0.0.1 too', async () => {
    const testApp = await createTestApp('pglite', { env: { NODE_ENV: 'development' } });
    try {
      expect(allowedOrigins(testApp.config)).toContain('http://127.0.0.1:3000');
      const alias = new TestClient(testApp.app, 'http://127.0.0.1:3000');
      const check = await alias.request({
        method: 'POST',
        url: '/api/users/check-user',
        payload: { email: 'new.person@uni.example' },
      });
      expect(check.statusCode).toBe(200);
      // better-auth's own origin check agrees: its 403 'Invalid origin' would come first; what
      // comes is its answer that no such provider is set up here.
      const signIn = await alias.request({
        method: 'POST',
        url: '/api/auth/sign-in/social',
        payload: { provider: 'google', callbackURL: '/userprofile' },
      });
      expect(signIn.statusCode).not.toBe(403);
      expect(signIn.body).not.toMatch(/origin/i);
    } finally {
      await testApp.close();
    }
  });

  it('is refused elsewhere with the address to open instead', async () => {
    const testApp = await createTestApp('pglite');
    try {
      const alias = new TestClient(testApp.app, 'http://127.0.0.1:3000');
      const check = await alias.request({
        method: 'POST',
        url: '/api/users/check-user',
        payload: { email: 'new.person@uni.example' },
      });
      expect(check.statusCode).toBe(403);
      expect(check.json()).toEqual({
        success: false,
        message: wrongAddressMessage('http://localhost:3000'),
      });
      expect(check.json().message).toContain('Open http://localhost:3000 instead.');
    } finally {
      await testApp.close();
    }
  });
});
