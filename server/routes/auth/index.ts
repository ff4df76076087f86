import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { providerRedirectSchema, providerSignInRequestSchema } from '#contract/http/users.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute } from '../declare-route.ts';
import { forwardCookies, toFetchHeaders } from '../../auth/session.ts';
import { errorBody } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';

/** The longest path under `/api/auth/` handed to better-auth (its own are under 100 characters). */
export const AUTH_PATH_MAX = 1024;

/**
 * The better-auth endpoints the product uses, below `/api/auth`: the session, signing in with a
 * provider and its callbacks, the links of a password-reset mail and of a verification mail, the
 * page an OAuth failure lands on. The others stay closed: signing up, signing in and out, asking for a reset and changing a
 * password go through our own routes (their checks, limits and profile steps), and changing a
 * name or an e-mail or deleting an account directly is not something the product offers.
 */
const AUTH_ENDPOINTS: readonly { method: 'GET' | 'POST'; path: RegExp }[] = [
  { method: 'GET', path: /^\/get-session$/ },
  { method: 'POST', path: /^\/sign-in\/(social|oauth2)$/ },
  { method: 'GET', path: /^\/callback\/[^/]+$/ },
  { method: 'GET', path: /^\/oauth2\/callback\/[^/]+$/ },
  { method: 'GET', path: /^\/reset-password\/[^/]+$/ },
  { method: 'GET', path: /^\/verify-email$/ },
  { method: 'GET', path: /^\/error$/ },
];

/** True for no value or a path of this site (`/userprofile?verified=email`), never another host. */
function isSitePath(value: string | null): boolean {
  if (value === null) return true;
  if (!/^\/(?![/\\])/.test(value)) return false;
  const reference = 'https://site.invalid';
  try {
    return new URL(value, reference).origin === reference;
  } catch {
    return false;
  }
}

/**
 * `/api/auth/*`: the better-auth endpoints in `AUTH_ENDPOINTS`, handed the request as a Fetch
 * `Request` and answered with its `Response`; any other path is the JSON 404 of any `/api` path.
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, config }: RouteContext,
): Promise<void> {
  // A JSON body is checked as JSON here (the same errors as every route) but handed on as the
  // text that came: serialising a parsed body again can run out of stack on deep nesting (a 500).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parseJson(request, body as string, (error: Error | null) => done(error, body)),
  );

  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    ...declareRoute({
      tag: 'auth',
      summary: "better-auth's endpoints that the web app and its mails use",
      access: 'guest',
      // The others (sign-in/email, sign-out, list-sessions, ...) are better-auth's documented API.
      betterAuth: [
        {
          method: 'GET',
          path: '/api/auth/get-session',
          summary: 'The current session (better-auth)',
          description: '`null` for a guest.',
        },
        {
          method: 'POST',
          path: '/api/auth/sign-in/social',
          summary: 'Start a Google or institutional sign-in (better-auth)',
          description: "Answers the provider's URL to send the browser to.",
          body: providerSignInRequestSchema,
          response: providerRedirectSchema,
        },
        {
          method: 'GET',
          path: '/api/auth/callback/:provider',
          summary: "Google's return from sign-in (better-auth)",
          params: z.object({ provider: z.string() }),
          query: z.object({ code: z.string().optional(), state: z.string().optional() }),
          redirect: 'To the screen the sign-in asked to come back to.',
        },
        {
          method: 'GET',
          path: '/api/auth/oauth2/callback/:providerId',
          summary: "The institutional provider's return from sign-in (better-auth)",
          params: z.object({ providerId: z.string() }),
          query: z.object({ code: z.string().optional(), state: z.string().optional() }),
          redirect: 'To the screen the sign-in asked to come back to.',
        },
        {
          method: 'GET',
          path: '/api/auth/reset-password/:token',
          summary: 'The link in a password reset mail (better-auth)',
          params: z.object({ token: z.string() }),
          query: z.object({ callbackURL: z.string() }),
          redirect: 'To the reset screen with the token, or with an error.',
        },
        {
          method: 'GET',
          path: '/api/auth/verify-email',
          summary: 'The link in a verification mail (better-auth)',
          description:
            'Marks the address verified and signs its account in (decision 026); a link opened again changes nothing. A `callbackURL` that is not a path of this site is a 400 in the error shape.',
          query: z.object({ token: z.string(), callbackURL: z.string().optional() }),
          redirect:
            'To the home screen with `verified=email`, and `error` (`INVALID_TOKEN`, `TOKEN_EXPIRED`) when the link does not work.',
        },
      ],
    }),
    async handler(request, reply) {
      const url = new URL(request.url, config.publicUrl);
      // better-auth rate-limits by address and path in an indexed column: a path longer than the
      // index takes would fail in the database. None of its endpoints' paths comes near this.
      if (url.pathname.length > AUTH_PATH_MAX) throw new Refusal(414, 'The address is too long.');
      const endpoint = url.pathname.slice('/api/auth'.length);
      if (
        !AUTH_ENDPOINTS.some(({ method, path }) => method === request.method && path.test(endpoint))
      ) {
        return reply
          .code(404)
          .send(errorBody(`There is no API endpoint ${request.method} ${url.pathname}.`));
      }
      // Found by the fuzzer: better-auth sends a failed verification link back to its
      // `callbackURL` with the error added, and fails (a 500) on one that is not a path; our own
      // links name a path of this site, so nothing else is handed on.
      if (endpoint === '/verify-email' && !isSitePath(url.searchParams.get('callbackURL'))) {
        return reply
          .code(400)
          .send(errorBody('This verification link is not valid. Send a new one from your home.'));
      }
      const hasBody = request.method !== 'GET' && request.body !== undefined;
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers: toFetchHeaders(request),
          ...(hasBody
            ? {
                body:
                  typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
              }
            : {}),
        }),
      );
      const body = response.body ? Buffer.from(await response.arrayBuffer()) : null;
      // better-auth answers a path it does not serve with `null`: the same JSON 404 as any /api.
      if (response.status === 404 && (body === null || body.toString() === 'null')) {
        return reply
          .code(404)
          .send(errorBody(`There is no API endpoint ${request.method} ${url.pathname}.`));
      }
      reply.code(response.status);
      forwardCookies(response.headers, reply);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      return reply.send(body);
    },
  });
}
