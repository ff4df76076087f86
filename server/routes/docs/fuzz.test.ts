import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { betterAuthErrorSchema, errorResponseSchema } from '#contract/http/errors.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { seedDemoData } from '../../db/seed.ts';
import { documentedOperations, type DocumentedOperation } from '../../presenters/api-document.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import {
  arbitraryFor,
  hostileString,
  hostileValue,
  tainted,
  type JsonSchema,
} from '../../test/json-schema-arbitrary.ts';
import { WHO, type Who } from '../../test/role-matrix.ts';

/*
 * Fuzzes every operation of the OpenAPI document (`GET /api/docs/openapi.json`) as a guest, a
 * student, a faculty member and a librarian: valid-shaped parameters and bodies generated from the
 * document's JSON Schemas, and hostile ones (wrong types, huge and odd strings, NUL, nulls,
 * missing and extra fields, bodies that are not JSON, odd content types, path parameters that are
 * not ids, foreign origins, forged cookies). No answer may be a 5xx; every error must have the
 * error shape; every 200 must match the operation's response schema.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run <this file>.
 * FUZZ_RUNS sets the cases per operation and caller.
 *
 * Nothing is skipped. One operation runs differently, because it would end the session the other
 * cases use: `POST /api/users/logout` runs each signed-in caller's cases on a session of its own
 * (the first case ends it; the rest send its revoked cookie). Each caller's cookie is fixed, so a
 * sign-up or sign-in that answers with a new session does not change who the next call is (the
 * last test checks every caller is still signed in as themselves); reset-password cannot end a
 * session here (no valid mailed token). Mail goes to the test outbox folder. better-auth's
 * endpoints that the document does not describe are not fuzzed, and a person with an incomplete
 * profile is not among the callers.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const ORIGIN = 'http://localhost:3000';

/**
 * The document as the server serves it, and the declaration behind each operation (its route,
 * its response schema), read once from an app built for the purpose: the cases below are made
 * from it. Each database's app then checks it serves the same document.
 */
const { DOCUMENT, OPERATIONS } = await (async () => {
  const reader = await createTestApp('pglite');
  try {
    const response = await reader.app.inject({ url: '/api/docs/openapi.json' });
    return {
      DOCUMENT: response.json() as { paths: Record<string, Record<string, unknown>> },
      OPERATIONS: documentedOperations(reader.app.declaredRoutes),
    };
  } finally {
    await reader.close();
  }
})();

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

/** One generated call, before the caller's cookie is added. */
interface FuzzCall {
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** A caller: whose cookie the call carries. */
interface Caller {
  who: Who;
  cookie?: string;
}

/** Path segments that are not ids, sent as they are (not percent-encoded). */
const RAW_SEGMENTS = [
  '%',
  '%00',
  '%zz',
  // Bytes that are not UTF-8: a lone surrogate, a cut sequence, 0xFF.
  '%ED%A0%80',
  '%C3',
  '%FF',
  '..',
  '%2F',
  '%2e%2e%2f',
  'a'.repeat(10_000),
  '-1',
  '0',
];

/** A path segment, percent-encoded; a lone surrogate (which cannot be) becomes U+FFFD first. */
const segment = (value: unknown) =>
  // With the u flag a pair is one code point, so only lone surrogates match.
  encodeURIComponent(String(value).replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));

/** Header values that can travel in HTTP/1.1 (visible ASCII), odd ones included. */
const headerValue = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{0,40}$/),
  fc.constantFrom('', 'x'.repeat(300), 'short', 'a b c', '"quoted"', '%00'),
);

/** Raw bodies that are not the JSON they claim to be. */
const RAW_BODIES = [
  '',
  '{',
  '{"a":',
  'nul',
  '[1,]',
  "{'a':1}",
  '\u0000',
  '\uFEFF{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzz',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json, text/plain',
  '*/*',
  'garbage',
];

/** Sample values the database really holds, so generated calls also reach the handlers' depths. */
interface Known {
  itemIds: string[];
  bookIds: string[];
  requestIds: string[];
  reservationIds: string[];
  dates: string[];
  emails: string[];
}

function pathValue(name: string, schema: JsonSchema, known: Known, path: string) {
  const real =
    name === 'provider' || name === 'providerId'
      ? ['google', 'oidc', 'github']
      : path.includes('/items/')
        ? known.itemIds
        : path.includes('/requests/')
          ? known.requestIds
          : path.includes('/reservations/')
            ? known.reservationIds
            : ['x'];
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...real).map(segment) },
    { weight: 2, arbitrary: tainted(fc.constantFrom(...real)).map(segment) },
    {
      weight: 2,
      arbitrary: arbitraryFor(schema).map(segment),
    },
    { weight: 2, arbitrary: hostileString.map(segment) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

/** A query string from the query parameters: valid-shaped, hostile, repeated or raw. */
function queryString(parameters: Parameter[], hints: Record<string, fc.Arbitrary<unknown>>) {
  const entries = parameters.map((parameter) =>
    fc.option(
      fc.oneof(
        {
          weight: 3,
          arbitrary: arbitraryFor(parameter.schema, { hints }, parameter.schema, parameter.name),
        },
        {
          weight: 2,
          arbitrary: arbitraryFor(
            parameter.schema,
            { hints, corrupt: true },
            parameter.schema,
            parameter.name,
          ),
        },
        { weight: 1, arbitrary: hostileValue },
      ),
      { freq: parameter.required ? 8 : 3, nil: undefined },
    ),
  );
  const shaped = fc.tuple(...entries).map((values) => {
    const search = new URLSearchParams();
    values.forEach((value, index) => {
      if (value === undefined) return;
      const name = parameters[index]!.name;
      for (const item of Array.isArray(value) && value.length < 5 ? value : [value])
        search.append(name, typeof item === 'object' ? JSON.stringify(item) : String(item));
    });
    return search.toString();
  });
  return fc.oneof(
    { weight: 6, arbitrary: shaped },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'q=%',
        'q=%E0%A4%A',
        'q=a&q=b&page=1&page=2',
        'page[]=1&q[a]=b',
        '__proto__=x&constructor=y',
        `q=${'z'.repeat(8_000)}`,
        'q=%00&title=%00&date=%00&status=%00',
        '&&&==&',
      ),
    },
  );
}

/** A request body as sent: its text and Content-Type, either absent. */
interface RawBody {
  payload?: string | Buffer;
  contentType?: string;
}

/** A body for a call that reads JSON: valid-shaped, corrupted, hostile, not JSON, or odd. */
function body(schema: JsonSchema | undefined, hints: Record<string, fc.Arbitrary<unknown>>) {
  const json = (value: unknown) => ({
    payload: JSON.stringify(value) ?? 'null',
    contentType: 'application/json',
  });
  const arms: {
    weight: number;
    arbitrary: fc.Arbitrary<RawBody>;
  }[] = [
    { weight: 1, arbitrary: hostileValue.map(json) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW_BODIES)
        .map((payload) => ({ payload, contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: fc.constant({}) },
    // Larger than Fastify's 1 MiB body limit.
    {
      weight: 1,
      arbitrary: fc.constant({
        payload: JSON.stringify({ text: 'b'.repeat(1_100_000) }),
        contentType: 'application/json',
      }),
    },
  ];
  if (schema) {
    arms.push(
      { weight: 8, arbitrary: arbitraryFor(schema, { hints }).map(json) },
      { weight: 8, arbitrary: arbitraryFor(schema, { hints, corrupt: true }).map(json) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(arbitraryFor(schema, { hints }), fc.constantFrom(...CONTENT_TYPES), fc.boolean())
          .map(([value, contentType, asForm]) => ({
            payload: asForm
              ? new URLSearchParams(
                  Object.entries((value ?? {}) as object).map(([key, item]) => [
                    key,
                    JSON.stringify(item) ?? '',
                  ]),
                ).toString()
              : JSON.stringify(value),
            contentType,
          })),
      },
      // A JSON body without a Content-Type.
      {
        weight: 1,
        arbitrary: arbitraryFor(schema, { hints }).map((value) => ({
          payload: JSON.stringify(value),
        })),
      },
      // A valid body with a deeply nested extra field, written as text (too deep to stringify).
      {
        weight: 1,
        arbitrary: fc
          .tuple(arbitraryFor(schema, { hints }), fc.constantFrom(100, 20_000))
          .map(([value, depth]) => {
            const text = JSON.stringify(value) ?? 'null';
            const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
            return {
              payload: text.startsWith('{')
                ? `{"extra":${deep}${text === '{}' ? '}' : `,${text.slice(1)}`}`
                : deep,
              contentType: 'application/json',
            };
          }),
      },
    );
  } else {
    arms.push({
      weight: 4,
      arbitrary: fc.constant({ payload: '{}', contentType: 'application/json' }),
    });
  }
  return fc.oneof(...arms);
}

/** Generated calls for one operation of the document. */
function calls(
  method: string,
  path: string,
  operation: {
    parameters?: Parameter[];
    requestBody?: { content: Record<string, { schema: JsonSchema }> };
  },
  known: Known,
  hints: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<FuzzCall> {
  const parameters = operation.parameters ?? [];
  const inPath = parameters.filter((parameter) => parameter.in === 'path');
  const inQuery = parameters.filter((parameter) => parameter.in === 'query');
  const inHeader = parameters.filter((parameter) => parameter.in === 'header');
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const reads = method !== 'get';

  return fc
    .record({
      segments: fc.tuple(
        ...inPath.map((parameter) => pathValue(parameter.name, parameter.schema, known, path)),
      ),
      query:
        inQuery.length > 0
          ? queryString(inQuery, hints)
          : fc.oneof(
              { weight: 5, arbitrary: fc.constant('') },
              {
                weight: 1,
                arbitrary: queryString(
                  [{ name: 'x', in: 'query', required: false, schema: {} }],
                  hints,
                ),
              },
            ),
      headers: fc.tuple(
        ...inHeader.map((parameter) =>
          fc.option(fc.oneof(arbitraryFor(parameter.schema).map(String), headerValue), {
            nil: undefined,
          }),
        ),
      ),
      body: reads
        ? body(bodySchema, hints)
        : fc.oneof(
            { weight: 9, arbitrary: fc.constant<RawBody>({}) },
            { weight: 1, arbitrary: body(undefined, hints) },
          ),
      origin: reads
        ? fc.oneof(
            { weight: 8, arbitrary: fc.constant<string | undefined>(ORIGIN) },
            { weight: 1, arbitrary: fc.constant(undefined) },
            {
              weight: 1,
              arbitrary: fc.constantFrom('https://evil.example', 'null', ORIGIN.toUpperCase()),
            },
          )
        : fc.constant(undefined),
    })
    .map(({ segments, query, headers, body: { payload, contentType }, origin }) => {
      let index = 0;
      const url = path.replace(/\{\w+\}/g, () => segments[index++]!) + (query ? `?${query}` : '');
      const sent: Record<string, string> = {};
      inHeader.forEach((parameter, position) => {
        const value = headers[position];
        if (value !== undefined) sent[parameter.name] = value;
      });
      if (origin !== undefined) sent.origin = origin;
      if (contentType !== undefined) sent['content-type'] = contentType;
      return { url, headers: sent, ...(payload !== undefined ? { payload } : {}) };
    });
}

/** The cookie a caller sends: its own, now and then forged or with junk beside it. */
const cookieVariant = fc.oneof(
  { weight: 8, arbitrary: fc.constant('own') },
  { weight: 1, arbitrary: fc.constant('forged') },
  { weight: 1, arbitrary: fc.constant('junk') },
);

let nextAddress = 1;
/** Each call comes from its own address, so per-address rate limits do not end the run early. */
const freshAddress = () => {
  const n = nextAddress++;
  return `172.${16 + ((n >> 16) & 15)}.${(n >> 8) & 255}.${n & 255}`;
};

/** What a failure prints: the call and the answer, shortened. */
function describeCall(
  method: string,
  call: FuzzCall,
  caller: Caller,
  response: LightMyRequestResponse,
) {
  const payload = call.payload === undefined ? '' : String(call.payload);
  return [
    `${method.toUpperCase()} ${call.url.slice(0, 300)} as ${caller.who}`,
    `headers ${JSON.stringify(call.headers).slice(0, 300)}`,
    `body ${payload.slice(0, 500)}${payload.length > 500 ? `… (${payload.length} characters)` : ''}`,
    `answered ${response.statusCode} ${response.body.slice(0, 500)}`,
  ].join('\n');
}

describe.each(testDatabaseKinds())('fuzzing the OpenAPI document on %s', (kind) => {
  let testApp: TestApp;
  const known: Known = {
    itemIds: [],
    bookIds: [],
    requestIds: [],
    reservationIds: [],
    dates: [],
    emails: [],
  };
  const people = {} as Record<Exclude<Who, 'guest'>, SignedInPerson>;
  const callers = {} as Record<Who, Caller>;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    // Calls carry this Origin so that they pass the cross-site check and reach the handlers.
    expect(testApp.config.publicUrl).toBe(ORIGIN);
    await seedDemoData(testApp.database.db);
    const db = testApp.database.db;
    for (const who of ['student', 'faculty', 'librarian'] as const) {
      people[who] = await signedInPerson(testApp, who);
      known.emails.push(people[who].email);
    }
    callers.guest = { who: 'guest' };
    for (const who of ['student', 'faculty', 'librarian'] as const)
      callers[who] = { who, cookie: people[who].client.cookieHeader() };

    const items = await db.selectFrom('items').select('id').limit(20).execute();
    known.itemIds = items.map((item) => item.id);
    // Books with copies wherever they stand in the table (the demo holds many items).
    const books = await db
      .selectFrom('items')
      .select('id')
      .where('copies', '>', 0)
      .orderBy('title')
      .limit(10)
      .execute();
    known.bookIds = books.map((item) => item.id);
    known.dates = reservableDates(new Date(), testApp.config.library.timeZone);
    for (const status of ['pending', 'accepted', 'ordered', 'rejected'] as const) {
      const row = await db
        .insertInto('resource_requests')
        .values({
          requester_id: people.student.id,
          requester_name: 'Fuzz',
          title: `Fuzz request ${status}`,
          resource_type: 'book',
          institution_name: 'Campus University',
          status,
          status_reason: status === 'rejected' ? 'Out of print' : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      known.requestIds.push(row.id);
    }
    for (const [index, status] of (['active', 'collected', 'cancelled'] as const).entries()) {
      const row = await db
        .insertInto('reservations')
        .values({
          user_id: people.student.id,
          item_id: known.bookIds[index]!,
          pickup_date: known.dates[1]!,
          time_slot: RESERVATION_TIME_SLOTS[0],
          slot_starts_at: new Date(Date.now() + 86_400_000),
          expires_at: new Date(Date.now() + 2 * 86_400_000),
          status,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      known.reservationIds.push(row.id);
    }
  });
  afterAll(async () => testApp?.close());

  /** Values for properties whose schema alone cannot make a valid one. */
  const hints = (): Record<string, fc.Arbitrary<unknown>> => ({
    email: fc.oneof(fc.emailAddress(), fc.constantFrom(...known.emails)),
    password: fc.string({ minLength: 8, maxLength: 40 }),
    driveLink: fc.webUrl(),
    publishedDate: fc
      .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString().slice(0, 10)),
    date: fc.oneof(
      fc.constantFrom(...known.dates),
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
    ),
    id: fc.oneof(fc.constantFrom(...known.bookIds), fc.uuid()),
    bookId: fc.oneof(fc.constantFrom(...known.bookIds), fc.uuid()),
    token: fc.string({ minLength: 10, maxLength: 60 }),
  });

  it('serves the document the fuzzer reads', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/docs' });
    expect(response.json()).toEqual(DOCUMENT);
  });

  const entries = Object.entries(DOCUMENT.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  entries.forEach(({ path, method, operation }, position) => {
    const spec = OPERATIONS.find(
      (candidate) => candidate.method === method && candidate.path === path,
    ) as DocumentedOperation;

    it(`${method.toUpperCase()} ${path}: no 5xx, errors in the error shape`, async () => {
      const generated = calls(method, path, operation as never, known, hints());
      let passedGuards = false;
      for (const [callerIndex, who] of WHO.entries()) {
        let caller = callers[who];
        if (spec.route === 'POST /api/users/logout' && who !== 'guest') {
          // A session of its own: logging out must not sign the other cases' caller out.
          const own = await signedInPerson(testApp, who);
          caller = { who, cookie: own.client.cookieHeader() };
        }
        const seed = SEED + position * 16 + callerIndex;
        try {
          await fc.assert(
            fc.asyncProperty(generated, cookieVariant, async (call, cookieKind) => {
              const headers = { ...call.headers };
              if (cookieKind === 'forged')
                headers.cookie = 'digi.session_token=forged.c2lnbmF0dXJl; digi.session_data=%00';
              else if (caller.cookie)
                headers.cookie =
                  cookieKind === 'junk'
                    ? `${caller.cookie}; =; a=%; digi.session_token=`
                    : caller.cookie;
              const options: InjectOptions = {
                method: method.toUpperCase() as InjectOptions['method'],
                url: call.url,
                headers,
                remoteAddress: freshAddress(),
                ...(call.payload !== undefined ? { payload: call.payload } : {}),
              };
              const response = await testApp.app.inject(options);
              const context = describeCall(method, call, caller, response);
              expect(response.statusCode, context).toBeLessThan(500);
              if (response.statusCode >= 400) checkError(spec, response, context);
              if (response.statusCode !== 401 && response.statusCode !== 403) passedGuards = true;
              if ([200, 201].includes(response.statusCode) && spec.operation.response) {
                const parsed = spec.operation.response.safeParse(response.json());
                expect(parsed.success, `${context}\n${parsed.error?.message}`).toBe(true);
              }
            }),
            { seed, numRuns: RUNS },
          );
        } catch (error) {
          (error as Error).message =
            `FUZZ_SEED=${SEED} (case seed ${seed}, ${who})\n${(error as Error).message}`;
          throw error;
        }
      }
      // Had every call stopped at the session or Origin checks, nothing deeper was tried.
      expect(passedGuards, 'no call got past the session and Origin checks').toBe(true);
    }, 120_000);
  });

  it('left every caller signed in as themselves', async () => {
    for (const who of ['student', 'faculty', 'librarian'] as const) {
      const response = await testApp.app.inject({
        method: 'GET',
        url: '/api/users/me',
        headers: { cookie: callers[who].cookie! },
      });
      expect(response.json().user?.email, who).toBe(people[who].email);
    }
  });
});

/** An error answer: JSON in our shape, or (under `/api/auth/`) in better-auth's. */
function checkError(spec: DocumentedOperation, response: LightMyRequestResponse, context: string) {
  expect(response.headers['content-type'], context).toMatch(/^application\/json/);
  const body: unknown = response.json();
  const ours = errorResponseSchema.safeParse(body);
  if (spec.betterAuth && !ours.success) {
    expect(betterAuthErrorSchema.safeParse(body).success, context).toBe(true);
    return;
  }
  expect(ours.success, `${context}\n${ours.error?.message}`).toBe(true);
}
