import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../contract/http/users.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { UsersTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import type { Auth } from './auth.ts';
import type { Selectable } from 'kysely';

/** A user row as our routes read it. */
export type UserRow = Selectable<UsersTable>;

/** The header that tells better-auth the client address Fastify resolved (see `toFetchHeaders`). */
export const CLIENT_IP_HEADER = 'x-digi-client-ip';

/**
 * A request's headers as the Fetch `Headers` better-auth expects, plus the client address
 * Fastify resolved (honouring TRUST_PROXY). A client-sent header of that name is dropped, so
 * nobody can choose the address better-auth rate-limits by.
 */
export function toFetchHeaders(request: FastifyRequest): Headers {
  const result = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    for (const item of Array.isArray(value) ? value : [value]) result.append(name, item);
  }
  result.set(CLIENT_IP_HEADER, request.ip);
  return result;
}

/** Passes every cookie better-auth set (sign-in, refresh, sign-out) on to the reply. */
export function forwardCookies(from: Headers, reply: FastifyReply): void {
  const cookies = from.getSetCookie();
  if (cookies.length === 0) return;
  const existing = reply.getHeader('set-cookie');
  const previous =
    existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  reply.header('set-cookie', [...previous, ...cookies]);
}

const resolved = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/**
 * The signed-in user of this request, or null for a guest. Resolved once per request; a session
 * that is due to roll forward gets its refreshed cookie on this reply.
 */
export function currentUser(
  request: FastifyRequest,
  reply: FastifyReply,
  { auth, database }: { auth: Auth; database: DatabaseHandle },
): Promise<UserRow | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = (async () => {
      const { headers, response } = await auth.api.getSession({
        headers: toFetchHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      if (!response) return null;
      const row = await database.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', response.user.id)
        .executeTakeFirst();
      return row ?? null;
    })();
    resolved.set(request, pending);
  }
  return pending;
}

/**
 * The signed-in user, who must have completed their profile and hold one of `roles` (any role
 * when none are given): 401 for a guest, 403 for anyone else.
 */
export async function requireUser(
  request: FastifyRequest,
  reply: FastifyReply,
  context: { auth: Auth; database: DatabaseHandle },
  roles: readonly Role[] = [],
): Promise<UserRow> {
  const user = await currentUser(request, reply, context);
  if (!user) throw new Refusal(401, 'Please sign in to continue.');
  if (!user.profile_completed)
    throw new Refusal(403, 'Please complete your academic profile first.');
  if (roles.length > 0 && !roles.includes(user.role)) {
    throw new Refusal(403, 'Your account is not allowed to do this.');
  }
  return user;
}
