import { APIError } from 'better-auth/api';
import type { FastifyRequest } from 'fastify';
import { ROUTES } from '#contract/routes.ts';
import { ACCOUNT_DISABLED_CODE, ACCOUNT_DISABLED_MESSAGE } from '../../auth/auth.ts';
import { rejectWeakPassword } from '../../auth/password-strength.ts';
import { resolveAuthSecret } from '../../auth/secret.ts';
import {
  FORGOT_PASSWORD_MESSAGE,
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  resetPasswordRequestSchema,
  resetPasswordResponseSchema,
  checkUserRequestSchema,
  checkUserResponseSchema,
  loginRequestSchema,
  loginResponseSchema,
  logoutResponseSchema,
  meResponseSchema,
  providersResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  signinRequestSchema,
  signinResponseSchema,
  VERIFICATION_LINK_HOURS,
  emailVerifiedLanding,
  verificationEmailResponseSchema,
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  currentUserSchema,
  PASSWORD_CHANGED_MESSAGE,
  profileUpdateSchema,
  accountDeletionPreviewSchema,
  accountDeletionRequestSchema,
  accountDeletionResponseSchema,
  ACCOUNT_DELETED_MESSAGE,
} from '#contract/http/users.ts';
import { currentUser, forwardCookies, toFetchHeaders } from '../../auth/session.ts';
import { completeProviderProfile, registerWithPassword } from '../../commands/register-user.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { enforceRateLimits, type RateRule } from '../../http/rate-limit.ts';
import {
  claimSignInAttempt,
  recordFailedSignIn,
  recordSignIn,
} from '../../http/sign-in-throttle.ts';
import { presentCurrentUser } from '../../presenters/user.ts';
import { collectMyData } from '../../users/my-data.ts';
import { deleteAccount, deletionPreview, hasPassword } from '../../users/delete-account.ts';
import { presentDeletionPreview } from '../../presenters/account-deletion.ts';
import { listRooms } from '../../chat/store.ts';
import { presentRoom } from '../../presenters/chat.ts';
import { channel } from '../../realtime/chat/context.ts';
import { sessionRoom, userRoom } from '../../realtime/index.ts';
import { findSignUpState, resetTokenOwner, updateProfile, userRole } from '../../users/store.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

// Per-address limits are generous (a campus puts many people behind one address); per-e-mail
// limits are what stop probing one account. Sign-in has none per e-mail alone, which would let
// anyone lock the owner out: it is slowed per e-mail and address instead (decision 020).
const MINUTE = 60;
const HOUR = 60 * MINUTE;

/**
 * `check-user` answers whether an e-mail has an account, and its role (the spec's contract), so
 * it allows only what sign-up needs: a few checks per address and per e-mail (issue 19).
 */
export const CHECK_USER_RATES = {
  address: { limit: 10, windowSeconds: 15 * MINUTE },
  email: { limit: 5, windowSeconds: 15 * MINUTE },
} as const satisfies Record<string, Omit<RateRule, 'key'>>;

/**
 * The spec's account calls (`/api/users/*`). better-auth does the identity work; these routes
 * keep the spec's request and response shapes, validate with the contract's schemas, rate-limit
 * per IP and per e-mail, and never trust the payload for who the caller is.
 */
export async function userRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const { auth, database, config } = context;
  const db = database.db;
  const ipKey = (request: FastifyRequest) => request.ip;

  app.post(
    '/users/check-user',
    declareRoute({
      tag: 'users',
      summary: 'Whether an account with a complete profile exists',
      access: 'guest',
      body: checkUserRequestSchema,
      response: checkUserResponseSchema,
      rateLimited: true,
    }),
    async (request) => {
      const { email } = parseInput(checkUserRequestSchema, request.body);
      await enforceRateLimits(db, [
        { key: `check-user:ip:${ipKey(request)}`, ...CHECK_USER_RATES.address },
        { key: `check-user:email:${email}`, ...CHECK_USER_RATES.email },
      ]);
      // The same statements whether the account exists or not, so the answer takes the same time.
      const user = await findSignUpState(db, email);
      return user?.profile_completed
        ? { exists: true, payload: { role: user.role } }
        : { exists: false };
    },
  );

  app.post(
    '/users/register',
    declareRoute({
      tag: 'users',
      summary: 'Create an account (form) or complete a provider sign-in',
      description:
        'A form sign-up signs the caller in as the new account. A provider sign-up completes the profile of the identity that is signed in.',
      access: 'guest',
      body: registerRequestSchema,
      response: registerResponseSchema,
      rateLimited: true,
      errors: { 401: 'A provider sign-up without a provider session.' },
    }),
    async (request, reply) => {
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
    },
  );

  app.post(
    '/users/login',
    declareRoute({
      tag: 'users',
      summary: 'Sign in with e-mail and password',
      access: 'guest',
      body: loginRequestSchema,
      response: loginResponseSchema,
      rateLimited: true,
      errors: {
        401: 'Invalid credentials (the same answer for an unknown e-mail).',
        403: 'The right password for an account a librarian disabled.',
      },
    }),
    async (request, reply) => {
      const body = parseInput(loginRequestSchema, request.body);
      // Slowed per (e-mail, address) pair, never locked per e-mail alone (decision 020).
      const pair = { email: body.email, address: ipKey(request) };
      await claimSignInAttempt(db, pair);
      try {
        const { headers, response } = await auth.api.signInEmail({
          body: { email: body.email, password: body.password, rememberMe: body.rememberMe },
          headers: toFetchHeaders(request),
          returnHeaders: true,
        });
        forwardCookies(headers, reply);
        await recordSignIn(db, pair);
        const role = await userRole(db, response.user.id);
        return { success: true, payload: { role }, message: 'Login successful' };
      } catch (error) {
        // Only the right password reaches the disabled check, so saying so tells a guesser nothing.
        if (error instanceof APIError && error.body?.code === ACCOUNT_DISABLED_CODE) {
          throw new Refusal(403, ACCOUNT_DISABLED_MESSAGE);
        }
        // The same answer whether the e-mail exists or the password is wrong.
        if (error instanceof APIError) {
          await recordFailedSignIn(db, pair);
          throw new Refusal(401, 'Invalid credentials');
        }
        throw error;
      }
    },
  );

  app.post(
    '/users/signin',
    declareRoute({
      tag: 'users',
      summary: "The signed-in user's own summary",
      description:
        "One's own e-mail only; anyone else's is 403. A provider sign-in whose profile is not complete yet is answered `success: false`.",
      access: 'identity',
      body: signinRequestSchema,
      response: signinResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const { email } = parseInput(signinRequestSchema, request.body);
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
    },
  );

  app.post(
    '/users/logout',
    declareRoute({
      tag: 'users',
      summary: "End this browser's session and its sockets",
      access: 'guest',
      response: logoutResponseSchema,
    }),
    async (request, reply) => {
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
      return { success: true as const };
    },
  );

  app.get(
    '/users/me',
    declareRoute({
      tag: 'users',
      summary: 'Who is signed in',
      description: '`{ user: null }` for a guest.',
      access: 'guest',
      response: meResponseSchema,
    }),
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await currentUser(request, reply, context);
      return { user: user ? presentCurrentUser(user) : null };
    },
  );

  app.patch(
    '/users/me',
    declareRoute({
      tag: 'users',
      summary: "Change one's own profile (My account)",
      description:
        'Any of first and last name, phone number, institution, department, student ID, graduation year (null to clear) and academic profile. Answers the account as it now is.',
      access: 'signed-in',
      body: profileUpdateSchema,
      response: currentUserSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const patch = parseInput(profileUpdateSchema, request.body);
      return presentCurrentUser(await updateProfile(db, caller.id, patch));
    },
  );

  app.get(
    '/users/me/data',
    declareRoute({
      tag: 'users',
      summary: 'Download my data (My account)',
      description:
        'Everything the library keeps about the caller: profile, reservations, requests filed and supported, waiting-list places, forum messages, reading (last pages, display, bookmarks, highlights and notes), saved items and reading lists, and their library insights events still kept raw.',
      access: 'signed-in',
      download: {
        contentType: 'application/json',
        description: 'A JSON file, offered as `digi-library-my-data.json`.',
      },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const data = await collectMyData(db, caller, context.now(), {
        secret: resolveAuthSecret(context.config),
        timeZone: context.config.library.timeZone,
        retentionDays: context.config.library.insightsRetentionDays,
      });
      reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="digi-library-my-data.json"');
      return reply.send(`${JSON.stringify(data, null, 2)}\n`);
    },
  );

  app.get(
    '/users/me/deletion',
    declareRoute({
      tag: 'users',
      summary: 'What deleting my account would do (My account)',
      description:
        'Said before it is done: the books on loan that stop it, and how many reservations, waiting-list places, requests, rooms and forum messages it touches, the course materials that stay, and whether the password or the e-mail address confirms it.',
      access: 'signed-in',
      response: accountDeletionPreviewSchema,
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      reply.header('cache-control', 'no-store');
      return presentDeletionPreview(await deletionPreview(db, caller.id, context.now()));
    },
  );

  app.delete(
    '/users/me',
    declareRoute({
      tag: 'users',
      summary: 'Delete my account (My account)',
      description:
        'Needs the password, or for an account without one (Google, an institution) its e-mail address typed again. Cancels active reservations (their copies go to the next in line) and waiting-list places; removes requests, saved items and reading lists, and the rooms one created with their messages; keeps one’s messages in other rooms under "Deleted account" and the course materials one published. Ends every session and socket, and clears this browser’s cookie.',
      access: 'signed-in',
      body: accountDeletionRequestSchema,
      response: accountDeletionResponseSchema,
      rateLimited: true,
      errors: {
        400: 'The password (or the e-mail address) is missing or wrong.',
        409: 'A book is still out on loan (named), or this is the last librarian.',
      },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const body = parseInput(accountDeletionRequestSchema, request.body ?? {});
      // Guessing the password from a stolen session is as slow here as changing it.
      await enforceRateLimits(db, [
        { key: `delete-account:user:${caller.id}`, limit: 10, windowSeconds: HOUR },
      ]);
      const invalid = (path: string, message: string) =>
        new Refusal(400, 'Some fields are missing or invalid.', [{ path, message }]);
      if (await hasPassword(db, caller.id)) {
        if (!body.password) throw invalid('password', 'Your password is required.');
        try {
          await auth.api.verifyPassword({
            body: { password: body.password },
            headers: toFetchHeaders(request),
          });
        } catch (error) {
          if (error instanceof APIError) throw invalid('password', 'That is not your password.');
          throw error;
        }
      } else if ((body.confirmEmail ?? '').trim().toLowerCase() !== caller.email) {
        throw invalid('confirmEmail', 'Type your own e-mail address exactly to confirm.');
      }
      const now = context.now();
      const { removedRooms } = await deleteAccount(db, caller.id, now);
      // The session rows are gone with the account; this clears this browser's cookie.
      const { headers } = await auth.api.signOut({
        headers: toFetchHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      const { io } = request.server;
      io.in(userRoom(caller.id)).disconnectSockets(true);
      if (removedRooms.length > 0) {
        for (const room of removedRooms) {
          io.to(channel(room.id)).emit('room_closed', { roomName: room.name });
          io.in(channel(room.id)).socketsLeave(channel(room.id));
        }
        io.emit('available_rooms', (await listRooms(db, now)).map(presentRoom));
      }
      return { success: true as const, message: ACCOUNT_DELETED_MESSAGE };
    },
  );

  app.post(
    '/users/change-password',
    declareRoute({
      tag: 'users',
      summary: "Change one's password",
      description:
        'Needs the current password. Ends every other session of the account (and their sockets); this browser gets a new session cookie.',
      access: 'signed-in',
      body: changePasswordRequestSchema,
      response: changePasswordResponseSchema,
      rateLimited: true,
      errors: {
        400: 'The current password is wrong, the new one too easy to guess, or the account signs in with a provider and has no password.',
      },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const body = parseInput(changePasswordRequestSchema, request.body);
      // Guessing the current password from a stolen session is as slow as signing in.
      await enforceRateLimits(db, [
        { key: `change-password:user:${caller.id}`, limit: 10, windowSeconds: HOUR },
      ]);
      await rejectWeakPassword(
        body.newPassword,
        {
          libraryName: config.library.name,
          email: caller.email,
          names: [caller.first_name, caller.last_name],
        },
        'newPassword',
      );
      let result;
      try {
        result = await auth.api.changePassword({
          body: {
            currentPassword: body.currentPassword,
            newPassword: body.newPassword,
            revokeOtherSessions: true,
          },
          headers: toFetchHeaders(request),
          returnHeaders: true,
        });
      } catch (error) {
        if (error instanceof APIError) {
          const noPassword = /credential account/i.test(error.message);
          throw new Refusal(
            400,
            'Some fields are missing or invalid.',
            noPassword
              ? [
                  {
                    path: 'currentPassword',
                    message:
                      'Your account signs in with Google or your institution, so it has no password here to change.',
                  },
                ]
              : [{ path: 'currentPassword', message: 'That is not your current password.' }],
          );
        }
        throw error;
      }
      forwardCookies(result.headers, reply);
      // The other browsers' live connections end with their sessions; this one reconnects with
      // its new cookie.
      request.server.io.in(userRoom(caller.id)).disconnectSockets(true);
      return { success: true as const, message: PASSWORD_CHANGED_MESSAGE };
    },
  );

  app.post(
    '/users/verification-email',
    declareRoute({
      tag: 'users',
      summary: 'Mail the verification link again',
      description:
        "To the caller's own address, whose link lands on their home signed in (decision 026). An address verified already is said to be, and nothing is sent.",
      access: 'signed-in',
      response: verificationEmailResponseSchema,
      rateLimited: true,
    }),
    async (request) => {
      const user = signedInCaller(request);
      if (user.email_verified) {
        return { success: true as const, message: 'Your e-mail address is already verified.' };
      }
      // As the reset mail's: a few per account, generous per address (a campus shares one).
      await enforceRateLimits(db, [
        { key: `verify:ip:${ipKey(request)}`, limit: 30, windowSeconds: HOUR },
        { key: `verify:email:${user.email}`, limit: 3, windowSeconds: HOUR },
      ]);
      await auth.api.sendVerificationEmail({
        body: { email: user.email, callbackURL: emailVerifiedLanding(user.role) },
        headers: toFetchHeaders(request),
      });
      return {
        success: true as const,
        message: `We sent a new link to ${user.email}. It works for ${VERIFICATION_LINK_HOURS} hours.`,
      };
    },
  );

  app.post(
    '/users/forgot-password',
    declareRoute({
      tag: 'users',
      summary: 'Mail a password reset link',
      description: 'The same answer whether the account exists.',
      access: 'guest',
      body: forgotPasswordRequestSchema,
      response: forgotPasswordResponseSchema,
      rateLimited: true,
    }),
    async (request) => {
      const { email } = parseInput(forgotPasswordRequestSchema, request.body);
      await enforceRateLimits(db, [
        { key: `reset:ip:${ipKey(request)}`, limit: 30, windowSeconds: HOUR },
        { key: `reset:email:${email}`, limit: 3, windowSeconds: HOUR },
      ]);
      await auth.api.requestPasswordReset({
        body: { email, redirectTo: ROUTES.forgotPassword },
        headers: toFetchHeaders(request),
      });
      return { success: true as const, message: FORGOT_PASSWORD_MESSAGE };
    },
  );

  app.post(
    '/users/reset-password',
    declareRoute({
      tag: 'users',
      summary: 'Set a new password with a mailed token',
      description: 'Ends every session of the account.',
      access: 'guest',
      body: resetPasswordRequestSchema,
      response: resetPasswordResponseSchema,
      rateLimited: true,
    }),
    async (request) => {
      const body = parseInput(resetPasswordRequestSchema, request.body);
      await enforceRateLimits(db, [
        { key: `reset:ip:${ipKey(request)}`, limit: 30, windowSeconds: HOUR },
      ]);
      await rejectWeakPassword(
        body.password,
        await resetTokenOwner({ auth, db }, body.token, config.library.name),
      );
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
        success: true as const,
        message: 'Your password has been changed. You can sign in with it now.',
      };
    },
  );

  app.get(
    '/users/providers',
    declareRoute({
      tag: 'users',
      summary: 'Which external sign-in buttons work',
      access: 'guest',
      response: providersResponseSchema,
    }),
    async () => ({
      google: config.google !== undefined,
      oidc: config.oidc ? { label: config.oidc.label } : null,
    }),
  );
}
