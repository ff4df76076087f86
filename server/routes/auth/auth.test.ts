import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorResponseSchema } from '#contract/http/errors.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople } from '../../test/factories.ts';
import { AUTH_PATH_MAX } from './index.ts';

describe.each(testDatabaseKinds())('/api/auth/* on %s', (kind) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(kind);
  });
  afterAll(async () => testApp.close());

  // Found by the fuzzer: better-auth keys its rate limit by address and path in a unique index,
  // and a long path (here a reset link with a 3,000-character token) made the insert fail: a 500.
  it('refuses an overlong path with 414 before better-auth sees it', async () => {
    const token = randomBytes(1500).toString('hex');
    const response = await testApp.app.inject({
      url: `/api/auth/reset-password/${token}?callbackURL=/forgot-password`,
    });
    expect(response.statusCode).toBe(414);
    expect(errorResponseSchema.parse(response.json()).message).toBe('The address is too long.');
  });

  it('still hands a path at the limit to better-auth', async () => {
    const prefix = '/api/auth/reset-password/';
    const response = await testApp.app.inject({
      url: `${prefix}${'a'.repeat(AUTH_PATH_MAX - prefix.length)}?callbackURL=/forgot-password`,
    });
    expect(response.statusCode).toBe(302);
  });

  // Found by the fuzzer: the proxy serialised the parsed body again, which ran out of stack (500).
  it('hands a JSON body on as it came, however deep, and refuses what is not JSON as any route does', async () => {
    const deep = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/social',
      payload: `{"extra":${'['.repeat(20_000)}${']'.repeat(20_000)},"provider":"google"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.statusCode).toBe(404);
    expect(deep.json().code).toBe('PROVIDER_NOT_FOUND');
    for (const [payload, message] of [
      ['{"provider":', 'The request body is not valid JSON.'],
      ['', 'The request body is empty; send a JSON object.'],
      ['{"__proto__":{"admin":true}}', 'The request body is not valid JSON.'],
    ]) {
      const response = await testApp.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/social',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.statusCode, payload).toBe(400);
      expect(response.json(), payload).toEqual({ success: false, message });
    }
  });

  it('keeps closed the better-auth endpoints the product does not use', async () => {
    const [person] = await signedInPeople(testApp, 1);
    const { client, email } = person!;
    const password = 'a-password-1234';
    const closed: [method: 'GET' | 'POST', url: string, body?: object][] = [
      ['POST', '/api/auth/sign-up/email', { email: 'x@example.edu', password, name: 'X' }],
      ['POST', '/api/auth/sign-in/email', { email, password }],
      ['POST', '/api/auth/update-user', { name: 'Someone else', role: 'librarian' }],
      ['POST', '/api/auth/change-email', { newEmail: 'other@example.edu' }],
      ['POST', '/api/auth/change-password', { currentPassword: password, newPassword: password }],
      ['POST', '/api/auth/delete-user', {}],
      ['POST', '/api/auth/request-password-reset', { email }],
      ['POST', '/api/auth/sign-out', {}],
      ['GET', '/api/auth/list-sessions'],
      ['POST', '/api/auth/get-session', {}],
    ];
    for (const [method, url, payload] of closed) {
      const response = await client.request({ method, url, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({
        success: false,
        message: `There is no API endpoint ${method} ${url}.`,
      });
    }
    // Nothing changed: the person is still signed in, as themselves.
    const session = await client.get('/api/auth/get-session');
    expect(session.json()).toMatchObject({ user: { email } });
  });

  // Found by the fuzzer: better-auth adds a failed link's error to its callbackURL, and a value
  // that is not a path (`w2z<_J$326`) made it throw: a 500.
  it('hands on a verification link only with a callbackURL that is a path of this site', async () => {
    for (const callbackURL of [
      'w2z<_J$326',
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
    ]) {
      const response = await testApp.app.inject({
        url: `/api/auth/verify-email?token=bad&callbackURL=${encodeURIComponent(callbackURL)}`,
      });
      expect(response.statusCode, callbackURL).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        message: 'This verification link is not valid. Send a new one from your home.',
      });
    }
    const ours = await testApp.app.inject({
      url: `/api/auth/verify-email?token=bad&callbackURL=${encodeURIComponent('/userprofile?verified=email')}`,
    });
    expect(ours.statusCode).toBe(302);
    expect(ours.headers.location).toBe('/userprofile?verified=email&error=INVALID_TOKEN');
  });

  it('answers a path better-auth does not serve with the JSON 404 of any /api path', async () => {
    const response = await testApp.app.inject({ url: '/api/auth/no-such-endpoint' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      message: 'There is no API endpoint GET /api/auth/no-such-endpoint.',
    });
  });
});
