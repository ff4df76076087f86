import { z } from 'zod';
import {
  markNoticesReadResponseSchema,
  markNoticesReadSchema,
  noticePreferencesSchema,
  noticePreferencesUpdateSchema,
  noticesQuerySchema,
  noticesResponseSchema,
  unsubscribeRequestSchema,
  unsubscribeResponseSchema,
} from '#contract/http/notices.ts';
import { resolveAuthSecret } from '../../auth/secret.ts';
import { parseInput } from '../../http/errors.ts';
import {
  listNotices,
  markNoticesRead,
  noticePreferences,
  setNoticePreferences,
  unreadCount,
} from '../../notices/store.ts';
import { unsubscribe } from '../../notices/unsubscribe.ts';
import { presentNotice } from '../../presenters/notices.ts';
import { announceUnread } from '../../realtime/notices.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/** `?token=`: RFC 8058's one-click POST carries the token in the link's query. */
const unsubscribeQuerySchema = z.object({
  token: z.string().max(500).optional().describe('The signed token, when not in the body.'),
});

/** The form media types of RFC 8058's one-click POST. */
const ONE_CLICK_FORMS = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * Notices (decision 031): one's bell (the list, the unread count, marking read), one's choice per
 * kind of whether notices also come by e-mail, and the signed one-click unsubscribe of e-mails.
 */
export async function noticeRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;
  // The secret better-auth signs with (AUTH_SECRET, or the one kept in DATA_DIR), read once.
  const secret = resolveAuthSecret(context.config);
  // RFC 8058: a mail program's one-click POST sends `List-Unsubscribe=One-Click` as a form, and
  // the token in the link's query. The form says nothing more, so it is read and set aside. Only
  // this plugin's routes take forms, and of them only the unsubscribe declares `formBody`.
  app.addContentTypeParser(ONE_CLICK_FORMS, (_request, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
    payload.on('error', (error) => done(error, undefined));
  });

  app.get(
    '/notices',
    declareRoute({
      tag: 'notices',
      summary: "The caller's notices, newest first, and the unread count",
      description:
        'Paged by `before` (the last id of the previous page); `hasMore` says more exist.',
      access: 'signed-in',
      query: noticesQuerySchema,
      response: noticesResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const query = parseInput(noticesQuerySchema, request.query);
      const { rows, hasMore } = await listNotices(db, user.id, query);
      return {
        payload: rows.map(presentNotice),
        unread: await unreadCount(db, user.id),
        hasMore,
      };
    },
  );

  app.post(
    '/notices/read',
    declareRoute({
      tag: 'notices',
      summary: 'Mark some or all of the caller’s notices read',
      description:
        "Ids of anyone else's notices change nothing. The caller's other tabs hear `notices_changed`.",
      access: 'signed-in',
      body: markNoticesReadSchema,
      response: markNoticesReadResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const body = parseInput(markNoticesReadSchema, request.body);
      const unread = await markNoticesRead(db, user.id, body, context.now());
      await announceUnread(request.server.io, db, [user.id]).catch((error: unknown) =>
        request.log.warn({ err: error }, 'the bell could not be updated'),
      );
      return { unread };
    },
  );

  app.get(
    '/users/me/notices',
    declareRoute({
      tag: 'notices',
      summary: 'Which kinds of notice also come to the caller by e-mail',
      description: 'Every kind is on until turned off; in-app notices are always kept.',
      access: 'signed-in',
      response: noticePreferencesSchema,
    }),
    async (request) => noticePreferences(db, signedInCaller(request).id),
  );

  app.put(
    '/users/me/notices',
    declareRoute({
      tag: 'notices',
      summary: 'Turn e-mail on or off for kinds of notice',
      description: 'Kinds left out stay as they are. Answers every kind.',
      access: 'signed-in',
      body: noticePreferencesUpdateSchema,
      response: noticePreferencesSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const body = parseInput(noticePreferencesUpdateSchema, request.body);
      return setNoticePreferences(db, user.id, body.email, context.now());
    },
  );

  app.post(
    '/notices/unsubscribe',
    declareRoute({
      tag: 'notices',
      summary: 'Stop the e-mails of one kind of notice, by an e-mail’s signed link',
      description:
        "The token comes in the body (the unsubscribe screen) or in `?token=` (RFC 8058's one-click POST of a mail program, `List-Unsubscribe-Post`). No sign-in: the token names the person and the kind. Doing it twice is the same as once.",
      access: 'guest',
      formBody: ONE_CLICK_FORMS,
      query: unsubscribeQuerySchema,
      body: unsubscribeRequestSchema,
      response: unsubscribeResponseSchema,
      errors: { 400: 'The token is not one this library signed (cut short or changed).' },
    }),
    async (request) => {
      const query = parseInput(unsubscribeQuerySchema, request.query);
      const fromBody =
        typeof request.body === 'object' && request.body !== null && 'token' in request.body
          ? (request.body as { token: unknown }).token
          : undefined;
      const { token } = parseInput(unsubscribeRequestSchema, { token: fromBody ?? query.token });
      const done = await unsubscribe(db, secret, token, context.now());
      return { success: true as const, ...done };
    },
  );
}
