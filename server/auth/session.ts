import { constantTimeEqual, makeSignature } from 'better-auth/crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '#contract/http/users.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { Refusal } from '../refusal.ts';
import { findSessionUser, findUser, type UserRow } from '../users/store.ts';
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

/** A session that is valid now, and its user. */
export interface SignedIn {
  sessionId: string;
  user: UserRow;
}

/** What reading a session cookie needs of better-auth's set-up, read once per instance. */
interface SessionSettings {
  secret: string;
  tokenCookie: string;
  dontRememberCookie: string;
  /** better-auth's cookie cache (off here): a request carrying one is left to better-auth. */
  dataCookie: string;
  expiresInMs: number;
  updateAgeMs: number;
}

const settingsOf = new WeakMap<Auth, Promise<SessionSettings>>();

function sessionSettings(auth: Auth): Promise<SessionSettings> {
  let settings = settingsOf.get(auth);
  if (!settings) {
    settings = auth.$context.then((context) => ({
      secret: context.secret,
      tokenCookie: context.authCookies.sessionToken.name,
      dontRememberCookie: context.authCookies.dontRememberToken.name,
      dataCookie: context.authCookies.sessionData.name,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
    settingsOf.set(auth, settings);
  }
  return settings;
}

/** Every value of the cookie `name` in a `Cookie` header, decoded, in order. */
function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1 || pair.slice(0, equals).trim() !== name) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      values.push(decodeURIComponent(value));
    } catch {
      values.push(value);
    }
  }
  return values;
}

/**
 * The value of a cookie better-auth signed (`value.signature`), or null when it is not signed so.
 * The signature is checked with better-auth's own helpers (`makeSignature`, `constantTimeEqual`),
 * so the rule is the library's, not a copy of it. An encoding better-auth might also accept only
 * sends the request to better-auth itself, never lets one in that it would refuse.
 */
async function signedValue(cookie: string, secret: string): Promise<string | null> {
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return null;
  const value = cookie.slice(0, dot);
  const expected = await makeSignature(value, secret);
  return constantTimeEqual(cookie.slice(dot + 1), expected) ? value : null;
}

/**
 * The session a request's cookies name and its user, or null, in one statement (decision 019).
 * The plain case, a validly signed session cookie whose session exists, has not ended and is
 * not due to roll forward (or belongs to a browser session, which never rolls), is read here:
 * one join of `sessions` and `users`, with better-auth's own checks. Everything else (a bad
 * signature, an ended or unknown session, one due to roll forward, a stray cookie-cache cookie)
 * goes to better-auth's `getSession`, which decides as it always did and returns the cookies it
 * sets (a refreshed session, a dead one cleared) in `headers`. Nothing is cached: a session that
 * has ended or an account that is gone is refused at once.
 */
export async function readSession(
  { auth, database }: { auth: Auth; database: DatabaseHandle },
  cookieHeader: string | undefined,
  requestHeaders: () => Headers,
): Promise<{ signedIn: SignedIn | null; headers?: Headers }> {
  if (!cookieHeader) return { signedIn: null };
  const settings = await sessionSettings(auth);
  const tokens = cookieValues(cookieHeader, settings.tokenCookie);
  const cacheCookie = cookieHeader.includes(settings.dataCookie);
  if (tokens.length === 0 && !cacheCookie) return { signedIn: null };
  const token =
    tokens.length === 1 && !cacheCookie ? await signedValue(tokens[0]!, settings.secret) : null;
  if (token) {
    const row = await findSessionUser(database.db, token);
    // A disabled account's sessions were deleted when it was disabled; this check, on the row
    // already read, keeps any that slipped past (a sign-in racing the disabling) from counting.
    if (row?.disabled_at) return { signedIn: null };
    const now = Date.now();
    if (row && row.session_expires_at.getTime() > now) {
      const dueToRoll =
        row.session_expires_at.getTime() - settings.expiresInMs + settings.updateAgeMs <= now;
      const [dontRemember] = cookieValues(cookieHeader, settings.dontRememberCookie);
      if (!dueToRoll || (dontRemember && (await signedValue(dontRemember, settings.secret)))) {
        const { session_id: sessionId, session_expires_at: _, ...user } = row;
        return { signedIn: { sessionId, user } };
      }
    }
  }
  const { headers, response } = await auth.api.getSession({
    headers: requestHeaders(),
    returnHeaders: true,
  });
  const found = response ? await findUser(database.db, response.user.id) : undefined;
  const user = found?.disabled_at ? undefined : found;
  return { signedIn: response && user ? { sessionId: response.session.id, user } : null, headers };
}

const resolved = new WeakMap<FastifyRequest, Promise<UserRow | null>>();

/**
 * The signed-in user of this request, or null for a guest: one statement (`readSession`), none
 * for a guest, resolved once per request; a session that is due to roll forward gets its
 * refreshed cookie on this reply.
 */
export function currentUser(
  request: FastifyRequest,
  reply: FastifyReply,
  context: { auth: Auth; database: DatabaseHandle },
): Promise<UserRow | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = (async () => {
      const { signedIn, headers } = await readSession(context, request.headers.cookie, () =>
        toFetchHeaders(request),
      );
      if (headers) forwardCookies(headers, reply);
      return signedIn?.user ?? null;
    })();
    resolved.set(request, pending);
  }
  return pending;
}

/** The signed-in user, complete profile or not: 401 for a guest. */
export async function requireIdentity(
  request: FastifyRequest,
  reply: FastifyReply,
  context: { auth: Auth; database: DatabaseHandle },
): Promise<UserRow> {
  const user = await currentUser(request, reply, context);
  if (!user) throw new Refusal(401, 'Please sign in to continue.');
  return user;
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
  const user = await requireIdentity(request, reply, context);
  if (!user.profile_completed)
    throw new Refusal(403, 'Please complete your academic profile first.');
  if (roles.length > 0 && !roles.includes(user.role)) {
    throw new Refusal(403, 'Your account is not allowed to do this.');
  }
  return user;
}
