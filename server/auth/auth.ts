import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { passwordHasher } from './password.ts';
import { isDisabled } from '../users/accounts.ts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#contract/limits.ts';
import { VERIFICATION_LINK_HOURS } from '#contract/http/users.ts';

const DAY = 60 * 60 * 24;

/** better-auth's id of the institution's OpenID Connect provider (its callback path ends with it). */
export const OIDC_PROVIDER_ID = 'oidc';

/**
 * The header that tells better-auth the client address Fastify resolved (`toFetchHeaders` in
 * `./session.ts` sets it): here, so that the guards import the set-up and never the reverse.
 */
export const CLIENT_IP_HEADER = 'x-digi-client-ip';

/** How long a password reset link works. */
export const RESET_LINK_MINUTES = 60;

/**
 * A mail about one's account that carries a link: the greeting, what `before` says, the link on
 * a line of its own, what `after` says, and the library's signature.
 */
function accountLinkMail(
  config: Config,
  user: { email: string; name: string },
  {
    subject,
    url,
    before,
    after,
  }: { subject: string; url: string; before: string[]; after: string[] },
): MailMessage {
  return {
    to: user.email,
    subject,
    link: url,
    text: [
      `Hello ${user.name},`,
      '',
      ...before,
      '',
      url,
      '',
      ...after,
      '',
      config.library.name,
      `${config.library.email} · ${config.library.phone}`,
    ].join('\n'),
  };
}

/** The password reset message. */
export function resetPasswordMail(
  config: Config,
  user: { email: string; name: string },
  url: string,
): MailMessage {
  return accountLinkMail(config, user, {
    subject: `Reset your ${config.library.name} password`,
    url,
    before: [
      `Someone, hopefully you, asked to reset the password of your ${config.library.name} account.`,
      `Open this link within ${RESET_LINK_MINUTES} minutes to choose a new one:`,
    ],
    after: ['If you did not ask for this, ignore this message: your password stays as it is.'],
  });
}

/** The message that verifies a new account's address (decision 026), at sign-up and on request. */
export function verificationMail(
  config: Config,
  user: { email: string; name: string },
  url: string,
): MailMessage {
  return accountLinkMail(config, user, {
    subject: `Verify your e-mail address for ${config.library.name}`,
    url,
    before: [
      `Welcome to ${config.library.name}. Please open this link within ${VERIFICATION_LINK_HOURS} hours to verify your e-mail address:`,
    ],
    after: [
      'Once it is verified you can reserve books, request resources and post in the discussion forum.',
      'If you did not sign up, ignore this message: nothing happens without the link.',
    ],
  });
}

/** better-auth's error code when a disabled account signs in (password or provider). */
export const ACCOUNT_DISABLED_CODE = 'ACCOUNT_DISABLED';

/** What a disabled account reads when it signs in with the right password. */
export const ACCOUNT_DISABLED_MESSAGE =
  'This account is disabled. Ask the library desk to re-enable it.';

/** How long a remembered session lives; every day of use pushes it forward (rolling). */
export const SESSION_DAYS = 30;

/**
 * better-auth on our own database and tables: password hashing (scrypt), sessions, cookies,
 * OAuth/OIDC and reset tokens are its job. Tables and columns are ours (snake_case, created by
 * `server/db/migrations/`); the mapping below tells better-auth their names.
 */
export function createAuth(options: {
  config: Config;
  database: DatabaseHandle;
  secret: string;
  /** Origins whose pages may call it with the session cookie (`allowedOrigins` in http/). */
  trustedOrigins: Iterable<string>;
  mailer?: Mailer;
  logger?: FastifyBaseLogger;
  /** Called after a password reset, which has ended every session of the user. */
  onPasswordReset?: (userId: string) => void;
}) {
  const { config, database, secret, trustedOrigins, mailer, logger, onPasswordReset } = options;
  const https = config.publicUrl.startsWith('https:');
  return betterAuth({
    appName: 'Digi Library',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    database: { db: database.db, type: 'postgres' },
    trustedOrigins: [...trustedOrigins],
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      // better-auth's scrypt, in low-priority threads of our own: a sign-in storm cannot starve
      // the event loop (server/auth/password.ts).
      password: { hash: passwordHasher.hash, verify: passwordHasher.verify },
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_MINUTES * 60,
      onPasswordReset: async ({ user }) => onPasswordReset?.(user.id),
      // Not awaited: answering as fast for an unknown e-mail as for a known one hides which exist.
      sendResetPassword: async ({ user, url }) => {
        if (!mailer) return;
        mailer.send(resetPasswordMail(config, user, url)).catch((error: unknown) => {
          logger?.error({ err: error, to: user.email }, 'could not send the password reset mail');
        });
      },
    },
    // A password sign-up is mailed a link (the profile's home is its `callbackURL`); opening it
    // marks the address verified and signs the person in there (decision 026). Until then our
    // guards refuse reserving, filing requests and chatting (./email-verification.ts).
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_LINK_HOURS * 60 * 60,
      // Not awaited, as the reset mail: a slow mail server never holds up the sign-up.
      sendVerificationEmail: async ({ user, url }) => {
        if (!mailer) return;
        mailer.send(verificationMail(config, user, url)).catch((error: unknown) => {
          logger?.error({ err: error, to: user.email }, 'could not send the verification mail');
        });
      },
    },
    user: {
      modelName: 'users',
      fields: { emailVerified: 'email_verified', createdAt: 'created_at', updatedAt: 'updated_at' },
      additionalFields: {
        // Never settable by a client: our routes and the user:create command decide it.
        role: {
          type: 'string',
          required: false,
          input: false,
          defaultValue: 'student',
          fieldName: 'role',
        },
      },
    },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_DAYS * DAY,
      updateAge: DAY,
      fields: {
        expiresAt: 'expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
      },
    },
    account: {
      modelName: 'accounts',
      fields: {
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
      // An identity from a provider never takes over a password account by e-mail alone.
      accountLinking: { enabled: false },
    },
    verification: {
      modelName: 'verifications',
      fields: { expiresAt: 'expires_at', createdAt: 'created_at', updatedAt: 'updated_at' },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'auth_rate_limits',
      fields: { lastRequest: 'last_request' },
      window: 60,
      max: 100,
    },
    advanced: {
      useSecureCookies: https,
      cookiePrefix: 'digi',
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true, secure: https },
      // Fastify resolves the client address (honouring TRUST_PROXY) and passes it in this header.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // better-auth reads a session with its user (and a user with its accounts) in one
      // statement, a join, not two: each PGlite statement costs a fixed 0.25-0.4 ms of CPU.
      database: { joins: true },
    },
    socialProviders: config.google
      ? { google: { clientId: config.google.clientId, clientSecret: config.google.clientSecret } }
      : {},
    plugins: config.oidc
      ? [
          genericOAuth({
            config: [
              {
                providerId: OIDC_PROVIDER_ID,
                name: config.oidc.label,
                discoveryUrl: `${config.oidc.issuer}/.well-known/openid-configuration`,
                clientId: config.oidc.clientId,
                clientSecret: config.oidc.clientSecret,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
                // HTTP Basic is the default every OpenID Connect provider accepts for a confidential client.
                tokenEndpointAuth: { method: 'client_secret_basic' },
              },
            ],
          }),
        ]
      : [],
    // Every sign-in (password or provider) makes a session: a disabled account gets none.
    databaseHooks: {
      session: {
        create: {
          before: async (session) => {
            if (await isDisabled(database.db, session.userId)) {
              throw new APIError('FORBIDDEN', {
                message: ACCOUNT_DISABLED_MESSAGE,
                code: ACCOUNT_DISABLED_CODE,
              });
            }
          },
        },
      },
    },
    telemetry: { enabled: false },
  });
}

/** The configured better-auth instance. */
export type Auth = ReturnType<typeof createAuth>;
