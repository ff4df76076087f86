import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../contract/http/users.ts';
import { Refusal } from '../refusal.ts';
import type { UserRow } from '../users/store.ts';
import { CLIENT_IP_HEADER, type Auth } from './auth.ts';

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

/** The user better-auth reads with a session: its own fields and, declared to it, ours. */
type SessionUser = NonNullable<Awaited<ReturnType<Auth['api']['getSession']>>>['user'];

/**
 * Our `users` row of the user better-auth read with the session. Every column is declared to
 * better-auth (`PROFILE_COLUMNS` in `./auth.ts`), so none is read again; it types our columns as
 * optional, the database has them NOT NULL.
 */
function userRow(user: SessionUser): UserRow {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    email_verified: user.emailVerified,
    image: user.image ?? null,
    created_at: user.createdAt,
    updated_at: user.updatedAt,
    role: user.role as Role,
    first_name: user.first_name!,
    last_name: user.last_name!,
    phone_number: user.phone_number!,
    institution_name: user.institution_name!,
    department: user.department!,
    student_id: user.student_id!,
    graduation_year: user.graduation_year ?? null,
    academic_fields: user.academic_fields!,
    academic_interests: user.academic_interests!,
    signup_method: user.signup_method as UserRow['signup_method'],
    profile_completed: user.profile_completed!,
    chat_username: user.chat_username ?? null,
  };
}

/** A session that is valid now, and its user. */
export interface SignedIn {
  sessionId: string;
  user: UserRow;
}

/**
 * The session the cookie in `headers` names and its user, or null: better-auth reads both in
 * one statement, a join (decision 019), on every call. There is no cookie cache, so a session
 * that has ended or an account that is gone is refused at once. `headers` of the answer carry
 * the cookies better-auth set: a session due to roll forward, a dead one cleared.
 */
export async function readSession(
  auth: Auth,
  requestHeaders: Headers,
): Promise<{ signedIn: SignedIn | null; headers: Headers }> {
  const { headers, response } = await auth.api.getSession({
    headers: requestHeaders,
    returnHeaders: true,
  });
  return {
    signedIn: response ? { sessionId: response.session.id, user: userRow(response.user) } : null,
    headers,
  };
}

const resolved = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/**
 * The signed-in user of this request, or null for a guest: one statement (`readSession`),
 * resolved once per request; a session that is due to roll forward gets its refreshed cookie on
 * this reply.
 */
export function currentUser(
  request: FastifyRequest,
  reply: FastifyReply,
  { auth }: { auth: Auth },
): Promise<UserRow | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = (async () => {
      const { signedIn, headers } = await readSession(auth, toFetchHeaders(request));
      forwardCookies(headers, reply);
      return signedIn?.user ?? null;
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
  context: { auth: Auth },
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
