import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installErrorHandler, parseInput } from '../http/errors.ts';
import { Refusal } from '../refusal.ts';
import type { UserRow } from '../users/store.ts';
import {
  declareRoute,
  guardDeclaredRoutes,
  installRouteDeclarations,
  signedInCaller,
  type Access,
  type DeclaringInstance,
} from './declare-route.ts';

const answerSchema = z.object({ name: z.string(), count: z.number().int() });
const bodySchema = z.object({ name: z.string().min(1), count: z.coerce.number().int() });

/** A bare app with one declared route, the way `buildApp` prepares the real one. */
async function appWith(register: (app: DeclaringInstance) => void) {
  const app = Fastify();
  installErrorHandler(app);
  installRouteDeclarations(app);
  await app.register(async (api) => register(api as DeclaringInstance), { prefix: '/api' });
  await app.ready();
  return app;
}

describe('declareRoute', () => {
  let app: Awaited<ReturnType<typeof appWith>> | undefined;
  afterEach(async () => app?.close());

  it('serialises the answer by its schema: fields the contract does not name are dropped', async () => {
    app = await appWith((api) =>
      api.get(
        '/thing',
        declareRoute({ tag: 't', summary: 'A thing', access: 'guest', response: answerSchema }),
        async () => ({ name: 'a', count: 1, secret: 'not in the contract' }),
      ),
    );
    const response = await app.inject({ url: '/api/thing' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ name: 'a', count: 1 });
  });

  it('answers a body that breaks the contract with a 500 in the error shape', async () => {
    app = await appWith((api) =>
      api.get(
        '/broken',
        declareRoute({ tag: 't', summary: 'Broken', access: 'guest', response: answerSchema }),
        // @ts-expect-error the compiler refuses an answer that is not the declared one
        async () => ({ name: 'a', count: 'one' }),
      ),
    );
    const response = await app.inject({ url: '/api/broken' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      message: 'Something went wrong on our side. Please try again.',
    });
  });

  it('leaves input to the handler: no validation, coercion or error format of Fastify’s own', async () => {
    const seen: unknown[] = [];
    app = await appWith((api) =>
      api.post(
        '/things/:id',
        declareRoute({
          tag: 't',
          summary: 'Make a thing',
          access: 'guest',
          params: z.object({ id: z.uuid() }),
          query: z.object({ page: z.coerce.number() }),
          body: bodySchema,
          response: answerSchema,
        }),
        async (request) => {
          seen.push(request.params.id, request.query, request.body);
          return parseInput(bodySchema, request.body);
        },
      ),
    );
    const response = await app.inject({
      method: 'POST',
      url: '/api/things/not-a-uuid?page=x',
      payload: { name: '', count: 'x', extra: true },
    });
    expect(seen).toEqual(['not-a-uuid', { page: 'x' }, { name: '', count: 'x', extra: true }]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: 'Some fields are missing or invalid.',
      errors: [
        { path: 'name', message: expect.any(String) },
        { path: 'count', message: expect.any(String) },
      ],
    });

    const stored = await app.inject({
      method: 'POST',
      url: '/api/things/x',
      payload: { name: 'a\u0000b', count: 2 },
    });
    expect(stored.statusCode).toBe(400);
    expect(stored.json()).toEqual({
      success: false,
      message: 'Some fields are missing or invalid.',
      errors: [{ path: 'name', message: 'Text cannot contain the NUL character (U+0000).' }],
    });
  });

  it('gives a route the error answers of its kind, serialised in the error shape', async () => {
    app = await appWith((api) =>
      api.post(
        '/refuse',
        declareRoute({
          tag: 't',
          summary: 'Refuses',
          access: ['librarian'],
          body: bodySchema,
          response: answerSchema,
          rateLimited: true,
          errors: { 409: 'Always.' },
        }),
        async () => {
          throw new Refusal(409, 'No.');
        },
      ),
    );
    const response = await app.inject({ method: 'POST', url: '/api/refuse', payload: {} });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ success: false, message: 'No.' });
    const [declared] = app.declaredRoutes;
    expect(app.declaredRoutes).toHaveLength(1);
    expect(declared).toMatchObject({ route: 'POST /api/refuse', method: 'POST' });
    expect(declared!.declaration.access).toEqual(['librarian']);
  });

  it('guards a route by its declared access, before the handler reads any input', async () => {
    const seen: Exclude<Access, 'guest'>[] = [];
    app = Fastify();
    installErrorHandler(app);
    installRouteDeclarations(app);
    // A stand-in guard: the header names the caller's role; none is a guest.
    guardDeclaredRoutes(app, async (request, _reply, access) => {
      seen.push(access);
      const role = request.headers['x-role'];
      if (typeof role !== 'string') throw new Refusal(401, 'Please sign in to continue.');
      if (Array.isArray(access) && !access.includes(role)) throw new Refusal(403, 'Not you.');
      return { id: 'u1', role } as UserRow;
    });
    const handled: string[] = [];
    await app.register(
      async (api) => {
        const declaring = api as DeclaringInstance;
        declaring.post(
          '/desk',
          declareRoute({ tag: 't', summary: 'Desk', access: ['librarian'], body: bodySchema }),
          async (request) => {
            parseInput(bodySchema, request.body);
            handled.push(signedInCaller(request).role);
            return {};
          },
        );
        declaring.get('/open', declareRoute({ tag: 't', summary: 'Open', access: 'guest' }), () => {
          handled.push('guest');
          return {};
        });
      },
      { prefix: '/api' },
    );
    await app.ready();
    const desk = (role?: string) =>
      app!.inject({
        method: 'POST',
        url: '/api/desk',
        payload: {},
        headers: role ? { 'x-role': role } : {},
      });
    expect((await desk()).statusCode).toBe(401);
    expect((await desk('student')).statusCode).toBe(403);
    expect((await desk('librarian')).statusCode).toBe(400);
    expect(handled).toEqual([]);
    expect((await app.inject({ url: '/api/open' })).statusCode).toBe(200);
    expect(handled).toEqual(['guest']);
    expect(seen).toEqual([['librarian'], ['librarian'], ['librarian']]);
  });
});
