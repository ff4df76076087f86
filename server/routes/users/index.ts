import { APIError } from 'better-auth/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROUTES } from '../../../contract/routes.ts';
import { rejectWeakPassword, type PasswordContext } from '../../auth/password-strength.ts';
import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordRequestSchema,
  resetPasswordRequestSchema,
  checkUserRequestSchema,
  loginRequestSchema,
  registerRequestSchema,
  signinRequestSchema,
} from '../../../contract/http/users.ts';
import { currentUser, forwardCookies, toFetchHeaders } from '../../auth/session.ts';
import { completeProviderProfile, registerWithPassword } from '../../commands/register-user.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import { presentCurrentUser } from '../../presenters/user.ts';
import { sessionRoom } from '../../realtime/index.ts';
import type { RouteContext } from '../context.ts';

// Per-address limits are generous (a campus puts many people behind one address); per-e-mail
// limits are what stop guessing at one account.
const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * The spec's account calls (`/api/users/*`). better-auth does the identity work; these routes
 * keep the spec's request and response shapes, validate with the contract's schemas, rate-limit
 * per IP and per e-mail, and never trust the payload for who the caller is.
 */
export async function userRoutes(app: FastifyInstance, context: RouteContext): Promise<void> {
  const { auth, database, config } = context;
  const db = database.db;
  const ipKey = (request: FastifyRequest) => request.ip;

  /**
   * Whose password a reset link changes, so that their names and e-mail count against the new
   * one. better-auth keeps the link's token as `reset-password:<token>` naming the user; an
   * unknown or expired token leaves only the library's name (better-auth refuses it afterwards).
   */
  const resetTokenOwner = async (token: string): Promise<PasswordContext> => {
    const library: PasswordContext = { libraryName: config.library.name };
    const { internalAdapter } = await auth.$context;
    const verification = await internalAdapter.findVerificationValue(`reset-password:${token}`);
    if (!verification || verification.expiresAt < new Date()) return library;
    const user = await db
      .selectFrom('users')
      .select(['email', 'name', 'first_name', 'last_name'])
      .where('id', '=', verification.value)
      .executeTakeFirst();
    if (!user) return library;
    // A provider's account may have only better-auth's full name, before its profile is complete.
    const names = user.first_name ? [user.first_name, user.last_name] : [user.name];
    return { ...library, email: user.email, names };
  };

  app.post('/users/check-user', async (request) => {
    const { email } = parseInput(checkUserRequestSchema, request.body);
    await enforceRateLimits(db, [
      { key: `check-user:ip:${ipKey(request)}`, limit: 300, windowSeconds: 15 * MINUTE },
      { key: `check-user:email:${email}`, limit: 20, windowSeconds: 15 * MINUTE },
    ]);
    const user = await db
      .selectFrom('users')
      .select(['role', 'profile_completed'])
      .where('email', '=', email)
      .executeTakeFirst();
    return user?.profile_completed
      ? { exists: true, payload: { role: user.role } }
      : { exists: false };
  });

  app.post('/users/register', async (request, reply) => {
    const body = parseInput(registerRequestSchema, request.body);
    await enforceRateLimits(db, [
      { key: `register:ip:${ipKey(request)}`, limit: 60, windowSeconds: HOUR },
      { key: `register:email:${body.email}`, limit: 5, windowSeconds: HOUR },
    ]);
    let role;
    if (body.signupMethod === 'form') {
      const result = await registerWithPassword(context, body, toFetchHeaders(request));
      forwardCookies(result.headers, reply);
      role = result.role;
    } else {
      role = await completeProviderProfile(
        context,
        await currentUser(request, reply, context),
        body,
      );
    }
    return { success: true, user: { role }, message: 'Registration successful' };
  });

  app.post('/users/login', async (request, reply) => {
    const body = parseInput(loginRequestSchema, request.body);
    await enforceRateLimits(db, [
      { key: `login:ip:${ipKey(request)}`, limit: 300, windowSeconds: 15 * MINUTE },
      { key: `login:email:${body.email}`, limit: 10, windowSeconds: 15 * MINUTE },
    ]);
    try {
      const { headers, response } = await auth.api.signInEmail({
        body: { email: body.email, password: body.password, rememberMe: body.rememberMe },
        headers: toFetchHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      const user = await db
        .selectFrom('users')
        .select('role')
        .where('id', '=', response.user.id)
        .executeTakeFirstOrThrow();
      return { success: true, payload: { role: user.role }, message: 'Login successful' };
    } catch (error) {
      // The same answer whether the e-mail exists or the password is wrong.
      if (error instanceof APIError) throw new Refusal(401, 'Invalid credentials');
      throw error;
    }
  });

  app.post('/users/signin', async (request, reply) => {
    const { email } = parseInput(signinRequestSchema, request.body);
    const user = await currentUser(request, reply, context);
    if (!user) throw new Refusal(401, 'Please sign in to continue.');
    // Only one's own account: this call must not look anybody else up.
    if (user.email !== email) throw new Refusal(403, 'You can only look up your own account.');
    if (!user.profile_completed) return { success: false, message: 'User not found in system' };
    return {
      success: true,
      payload: {
        role: user.role,
        email: user.email,
        firstName: user.first_name,
        phoneNumber: user.phone_number,
      },
    };
  });

  app.post('/users/logout', async (request, reply) => {
    const { response: session } = await auth.api.getSession({
      headers: toFetchHeaders(request),
      returnHeaders: true,
    });
    try {
      const { headers } = await auth.api.signOut({
        headers: toFetchHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
    } catch (error) {
      // Signing out without a session is already done.
      if (!(error instanceof APIError)) throw error;
    }
    // The sockets of this browser session go with it.
    if (session) request.server.io.in(sessionRoom(session.session.id)).disconnectSockets(true);
    return { success: true };
  });

  app.get('/users/me', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await currentUser(request, reply, context);
    return { user: user ? presentCurrentUser(user) : null };
  });

  app.post('/users/forgot-password', async (request) => {
    const { email } = parseInput(forgotPasswordRequestSchema, request.body);
    await enforceRateLimits(db, [
      { key: `reset:ip:${ipKey(request)}`, limit: 30, windowSeconds: HOUR },
      { key: `reset:email:${email}`, limit: 3, windowSeconds: HOUR },
    ]);
    await auth.api.requestPasswordReset({
      body: { email, redirectTo: ROUTES.forgotPassword },
      headers: toFetchHeaders(request),
    });
    return { success: true, message: FORGOT_PASSWORD_MESSAGE };
  });

  app.post('/users/reset-password', async (request) => {
    const body = parseInput(resetPasswordRequestSchema, request.body);
    await enforceRateLimits(db, [
      { key: `reset:ip:${ipKey(request)}`, limit: 30, windowSeconds: HOUR },
    ]);
    await rejectWeakPassword(body.password, await resetTokenOwner(body.token));
    try {
      // better-auth also ends every session of the account (revokeSessionsOnPasswordReset).
      await auth.api.resetPassword({
        body: { newPassword: body.password, token: body.token },
        headers: toFetchHeaders(request),
      });
    } catch (error) {
      if (error instanceof APIError) {
        throw new Refusal(
          400,
          'This reset link is invalid or has expired. Please ask for a new one.',
        );
      }
      throw error;
    }
    return {
      success: true,
      message: 'Your password has been changed. You can sign in with it now.',
    };
  });

  app.get('/users/providers', async () => ({
    google: config.google !== undefined,
    oidc: config.oidc ? { label: config.oidc.label } : null,
  }));
}
