import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.ts';
import { Refusal } from '../refusal.ts';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from './unavailable.ts';

/** An error as node-postgres or Node raise it: a message and, often, a code. */
const failure = (message: string, code?: string) =>
  Object.assign(new Error(message), code ? { code } : {});

// What node-postgres and Node throw while PostgreSQL is stopped, restarting or unreachable
// (seen in server/database-outage.test.ts), and what it throws for a query it refuses.
const UNAVAILABLE = {
  'connection refused': failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
  'admin shutdown': failure('terminating connection due to administrator command', '57P01'),
  'starting up': failure('the database system is starting up', '57P03'),
  'connection exception class': failure('connection failure', '08006'),
  'terminated under a query': failure('Connection terminated unexpectedly'),
  'pool connect timeout': failure('timeout exceeded when trying to connect'),
  'broken client': failure('Client has encountered a connection error and is not queryable'),
  'wrapped by a library': new Error('Failed to get session', {
    cause: failure('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'),
  }),
  'several addresses refused': new AggregateError([
    failure('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'),
    failure('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
  ]),
};
const NOT_UNAVAILABLE = {
  'unique violation': failure('duplicate key value violates unique constraint', '23505'),
  'missing table': failure('relation "nope" does not exist', '42P01'),
  'statement timeout': failure('canceling statement due to statement timeout', '57014'),
  'a bug': new TypeError("Cannot read properties of undefined (reading 'id')"),
  'an Refusal': new Refusal(409, 'That already exists.'),
  'not an error': 'ECONNREFUSED',
};

describe('isDatabaseUnavailable', () => {
  for (const [name, error] of Object.entries(UNAVAILABLE))
    it(`is true for ${name}`, () => expect(isDatabaseUnavailable(error)).toBe(true));
  for (const [name, error] of Object.entries(NOT_UNAVAILABLE))
    it(`is false for ${name}`, () => expect(isDatabaseUnavailable(error)).toBe(false));

  it('stops on a cause that points back at itself', () => {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('a call that finds the database unavailable', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp('pglite', {
      beforeReady(app) {
        app.get('/api/test/unavailable', async () => {
          throw UNAVAILABLE['admin shutdown'];
        });
      },
    });
  });
  afterAll(async () => testApp.close());

  it('answers 503 with the error shape, a clear message and Retry-After', async () => {
    const response = await testApp.app.inject({ url: '/api/test/unavailable' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({ success: false, message: DATABASE_UNAVAILABLE_MESSAGE });
  });
});
