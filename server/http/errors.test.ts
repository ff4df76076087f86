import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponseSchema } from '#contract/http/errors.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { parseInput } from './errors.ts';
import { Refusal } from '../refusal.ts';

const bodySchema = z.object({
  title: z.string().min(1, 'Title is required'),
  year: z.number().int(),
});

describe('error responses', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp('pglite', {
      beforeReady(app) {
        // Routes that exist only in this test, to drive each kind of failure through the real handler.
        app.post('/api/test/echo', async (request) => ({
          success: true,
          body: parseInput(bodySchema, request.body),
        }));
        app.post('/api/test/loose', async (request) => ({
          success: true,
          body: parseInput(z.object({}).loose(), request.body),
        }));
        app.get('/api/test/conflict', async () => {
          throw new Refusal(409, 'That already exists.');
        });
        app.get('/api/test/crash', async () => {
          throw new Error('secret internal detail at /srv/app/db.ts:42');
        });
      },
    });
  });
  afterAll(async () => testApp.close());

  const post = (payload: string, contentType = 'application/json') =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload,
      headers: { 'content-type': contentType },
    });

  it('names each invalid field with a 400', async () => {
    const response = await post(JSON.stringify({ title: '', year: 'soon' }));
    expect(response.statusCode).toBe(400);
    const body = errorResponseSchema.parse(response.json());
    expect(body.message).toBe('Some fields are missing or invalid.');
    expect(body.errors).toEqual([
      { path: 'title', message: 'Title is required' },
      { path: 'year', message: expect.any(String) },
    ]);
  });

  it('passes valid input through', async () => {
    const response = await post(JSON.stringify({ title: 'Dune', year: 1965 }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, body: { title: 'Dune', year: 1965 } });
  });

  it('explains malformed JSON, a wrong content type and an oversized body', async () => {
    const cases = [
      {
        response: await post('{"title": '),
        status: 400,
        message: 'The request body is not valid JSON.',
      },
      {
        response: await post('title=x', 'application/x-www-form-urlencoded'),
        status: 415,
        message: 'Send the request body as application/json.',
      },
      {
        response: await post(JSON.stringify({ title: 'x'.repeat(1_100_000), year: 1 })),
        status: 413,
        message: 'The request body is too large.',
      },
    ];
    for (const { response, status, message } of cases) {
      expect(response.statusCode).toBe(status);
      expect(errorResponseSchema.parse(response.json()).message).toBe(message);
    }
  });

  // Found by the fuzzer: PostgreSQL text cannot hold U+0000, and PGlite failed on some lone
  // surrogates: either reached a query and failed it (500).
  it('refuses text holding NUL or a lone surrogate with a 400 naming the field, at any depth', async () => {
    const response = await post(JSON.stringify({ title: 'Du\u0000ne', year: 1965 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { path: 'title', message: 'Text cannot contain the NUL character (U+0000).' },
    ]);
    const surrogate = await post(JSON.stringify({ title: 'Dune \uD800\u202E\uDC00', year: 1965 }));
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().errors).toEqual([
      { path: 'title', message: 'Text must be valid Unicode (it holds a lone surrogate).' },
    ]);
    const pair = await post(JSON.stringify({ title: 'Dune 𝕏', year: 1965 }));
    expect(pair.statusCode).toBe(200);
    const nested = await testApp.app.inject({
      method: 'POST',
      url: '/api/test/loose',
      payload: `{"a":${'['.repeat(50_000)}"\\u0000"${']'.repeat(50_000)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().errors[0].message).toBe('Text cannot contain the NUL character (U+0000).');
  });

  it('keeps the status and message of an Refusal', async () => {
    const response = await testApp.app.inject({ url: '/api/test/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'That already exists.' });
  });

  it('answers an unexpected error with a plain 500 and no internal detail', async () => {
    const response = await testApp.app.inject({ url: '/api/test/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      message: 'Something went wrong on our side. Please try again.',
    });
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('db.ts');
  });

  // Found by the fuzzer: Fastify's router answered these itself, in its own shape.
  it('answers a path the router cannot read in the error shape', async () => {
    const cases = [
      {
        url: '/api/items/%',
        status: 400,
        message: 'The address is not valid: it has a broken %-escape.',
      },
      {
        url: `/api/items/${'a'.repeat(101)}`,
        status: 414,
        message: 'A part of the address is too long.',
      },
    ];
    for (const { url, status, message } of cases) {
      const response = await testApp.app.inject({ url });
      expect(response.statusCode, url).toBe(status);
      expect(response.json()).toEqual({ success: false, message });
    }
  });
});
