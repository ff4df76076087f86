import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTICE_KIND_LABELS, NOTICE_KINDS, type NoticeKind } from '#contract/http/notices.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { setNoticePreferences } from './store.ts';

/** What a token that is not ours, or was altered, is answered. */
export const BAD_UNSUBSCRIBE_TOKEN_MESSAGE =
  'This unsubscribe link is not valid: it may have been cut short or changed. Sign in and choose which notices come by e-mail on My account.';

/**
 * The MAC of one person's unsubscribe from one kind. The message is prefixed with its purpose, so
 * a MAC made with the same secret for anything else (better-auth signs cookies with it) can never
 * pass for one of these.
 */
function mac(secret: string, userId: string, kind: NoticeKind): Buffer {
  return createHmac('sha256', secret).update(`notice-unsubscribe\n${userId}\n${kind}`).digest();
}

/**
 * The token of a one-click unsubscribe link: `<user id, base64url>.<kind>.<HMAC-SHA256>`. It does
 * not expire: an old e-mail's link should still stop the e-mails, and all it can do is that.
 */
export function unsubscribeToken(secret: string, userId: string, kind: NoticeKind): string {
  return [
    Buffer.from(userId, 'utf8').toString('base64url'),
    kind,
    mac(secret, userId, kind).toString('base64url'),
  ].join('.');
}

/** The person and kind a token names, when its MAC is ours; undefined for anything else. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; kind: NoticeKind } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [encodedUser, kind, signature] = parts as [string, string, string];
  if (!(NOTICE_KINDS as readonly string[]).includes(kind)) return undefined;
  const userId = Buffer.from(encodedUser, 'base64url').toString('utf8');
  if (userId === '') return undefined;
  const expected = mac(secret, userId, kind as NoticeKind);
  const given = Buffer.from(signature, 'base64url');
  // Compared in constant time, so the MAC cannot be guessed a byte at a time.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { userId, kind: kind as NoticeKind };
}

/**
 * Turns off e-mail for the kind a token names (RFC 8058's one-click, or the unsubscribe screen);
 * doing it twice is the same as once. An altered or foreign token is a 400 that says so.
 */
export async function unsubscribe(
  db: Kysely<Database>,
  secret: string,
  token: string,
  now: Date,
): Promise<{ kind: NoticeKind; message: string }> {
  const named = readUnsubscribeToken(secret, token);
  if (!named) throw new Refusal(400, BAD_UNSUBSCRIBE_TOKEN_MESSAGE);
  const account = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', named.userId)
    .executeTakeFirst();
  // A deleted account gets no e-mail at all: the link's promise holds without writing anything.
  if (account) await setNoticePreferences(db, named.userId, { [named.kind]: false }, now);
  return {
    kind: named.kind,
    message: `You will no longer get e-mails for: ${NOTICE_KIND_LABELS[named.kind]}. You still see these notices in the app, and can turn the e-mails back on in My account.`,
  };
}
