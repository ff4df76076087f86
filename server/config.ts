import path from 'node:path';
import { z } from 'zod';

const DEFAULT_HOURS = [
  'Monday-Friday: 8:00 AM-10:00 PM',
  'Saturday: 9:00 AM-6:00 PM',
  'Sunday: 12:00 PM-8:00 PM',
].join('; ');

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const httpUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' })
  .transform((value) => value.replace(/\/+$/, ''));

/** True for a time zone name this runtime knows (IANA names such as `Europe/Paris`). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const socialUrl = z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' });

/**
 * Every environment variable the server reads, with its default. `.env.example` and the README
 * table document the same list: change all three together.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce
    .number({ message: 'must be a whole number from 0 to 65535' })
    .int('must be a whole number from 0 to 65535')
    .min(0, 'must be a whole number from 0 to 65535')
    .max(65535, 'must be a whole number from 0 to 65535')
    .default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  PUBLIC_URL: httpUrl.optional(),
  LOG_LEVEL: z
    .enum(logLevels, { message: `must be one of ${logLevels.join(', ')}` })
    .default('info'),
  DEMO_DATA: booleanText.default(true),
  TRUST_PROXY: booleanText.default(false),
  SEMANTIC_SEARCH: booleanText.default(true),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, message: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  OPEN_LIBRARY_URL: httpUrl.optional(),
  BOOKS_API_URL: httpUrl.optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_ISSUER: httpUrl.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_LABEL: z.string().min(1).max(60).default('your institution'),
  AUTH_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (try: openssl rand -base64 32)')
    .optional(),
  LLM_BASE_URL: httpUrl.optional(),
  LLM_MODEL: z.string().min(1).default('llama3.2'),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_TIMEOUT_MS: z.coerce
    .number({ message: 'must be a whole number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(1000, 'must be at least 1000')
    .max(25_000, 'must be at most 25000 (answers come within 30 seconds)')
    .default(15_000),
  MODERATION_WORDS: z.string().optional(),
  MODERATION_WORDS_FILE: z.string().min(1).optional(),
  FACULTY_EMAIL_DOMAINS: z
    .string()
    .regex(/^[a-z0-9.-]+(\s*,\s*[a-z0-9.-]+)*$/i, 'must be a comma-separated list of domains')
    .optional(),
  LIBRARY_NAME: z.string().min(1).default('Digi Library'),
  LIBRARY_ADDRESS: z.string().min(1).default('1 University Avenue, Campus Town, CT 10001'),
  LIBRARY_PHONE: z.string().min(1).default('+1 (555) 010-4200'),
  LIBRARY_EMAIL: z.email('must be an e-mail address').default('library@digilibrary.example'),
  LIBRARY_HOURS: z.string().min(1).default(DEFAULT_HOURS),
  LIBRARY_HOURS_NOTE: z.string().min(1).default('Holiday hours may vary.'),
  LIBRARY_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/London or America/New_York')
    .optional(),
  LOAN_DAYS: z.coerce
    .number({ message: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(365, 'must be at most 365')
    .default(21),
  INSIGHTS_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(365, 'must be at most 365')
    .default(30),
  TEST_CLOCK: z.enum(['on', 'off'], { message: 'must be on or off' }).default('off'),
  LIBRARY_FACEBOOK_URL: socialUrl.default('https://www.facebook.com/'),
  LIBRARY_X_URL: socialUrl.default('https://x.com/'),
  LIBRARY_INSTAGRAM_URL: socialUrl.default('https://www.instagram.com/'),
  LIBRARY_LINKEDIN_URL: socialUrl.default('https://www.linkedin.com/'),
});

/** Names of every environment variable the server reads. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** The server's validated configuration. */
export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  logLevel: (typeof logLevels)[number];
  demoData: boolean;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /**
   * Search by meaning (issue 23): false leaves the embedding model unloaded and the catalogue
   * unembedded, and search and related items answer by words, authors and subjects alone.
   */
  semanticSearch: boolean;
  /** Signs sessions and tokens; when unset outside production, a random one is kept in DATA_DIR. */
  authSecret: string | undefined;
  /** Where mail goes: an SMTP server, or (unset) `.eml` files in DATA_DIR/outbox. */
  smtpUrl: string | undefined;
  /** The From of every message; defaults to the library's name and e-mail. */
  mailFrom: string;
  /** Federated book searches shown under our own results; each is off when unset. */
  external: { openLibraryUrl: string | undefined; booksApiUrl: string | undefined };
  /** Google sign-in, when both its client id and secret are set. */
  google: { clientId: string; clientSecret: string } | undefined;
  /** The institution's own OpenID Connect provider, when issuer, client id and secret are set. */
  oidc: { issuer: string; clientId: string; clientSecret: string; label: string } | undefined;
  /** E-mail domains whose faculty sign-ups are faculty at once; others wait (decision 025). */
  facultyEmailDomains: string[];
  /** The chatbot's OpenAI-compatible language model, when LLM_BASE_URL is set. */
  llm:
    { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number } | undefined;
  /**
   * End-to-end tests only: the server's clock can be moved forward by a librarian
   * (`POST /api/test/clock`), to see offers lapse and loans fall due without waiting days.
   */
  testClock: boolean;
  /** Words the library adds to the chat's abuse matcher: a comma-separated list and a file. */
  moderation: { words: string[]; wordsFile: string | undefined };
  library: {
    name: string;
    address: string;
    phone: string;
    email: string;
    hours: string[];
    hoursNote: string;
    /** Reservation days and pickup slots are in this time zone. */
    timeZone: string;
    /** How long a loan lasts, in days: the holds queue's estimate of the wait reads it. */
    loanDays: number;
    /** Days the insights' raw events (hashed person keys) are kept before the job reduces them. */
    insightsRetentionDays: number;
    social: { facebook: string; x: string; instagram: string; linkedin: string };
  };
}

/** Thrown when the environment holds a bad value; its message names every bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses and validates the environment once. Empty values count as unset, so a blank line in
 * `.env` falls back to the default instead of failing.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'environment');
        const given = present[name];
        return given === undefined
          ? `${name}: ${issue.message}`
          : `${name}: ${issue.message} (got "${given}")`;
      }),
    );
  }
  const e = result.data;
  const pairs: [string, string[]][] = [
    ['GOOGLE_CLIENT_ID', ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']],
    ['OIDC_ISSUER', ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']],
  ];
  for (const [, names] of pairs) {
    const set = names.filter((name) => present[name] !== undefined);
    if (set.length > 0 && set.length < names.length) {
      const missing = names.filter((name) => !set.includes(name));
      throw new ConfigError(
        missing.map(
          (name) =>
            `${name}: is required when ${set.join(' and ')} ${set.length > 1 ? 'are' : 'is'} set`,
        ),
      );
    }
  }
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    throw new ConfigError([
      'AUTH_SECRET: is required in production (try: openssl rand -base64 32)',
    ]);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    logLevel: e.LOG_LEVEL,
    testClock: e.TEST_CLOCK === 'on',
    demoData: e.DEMO_DATA,
    trustProxy: e.TRUST_PROXY,
    semanticSearch: e.SEMANTIC_SEARCH,
    smtpUrl: e.SMTP_URL,
    external: { openLibraryUrl: e.OPEN_LIBRARY_URL, booksApiUrl: e.BOOKS_API_URL },
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET }
        : undefined,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            label: e.OIDC_LABEL,
          }
        : undefined,
    mailFrom: e.MAIL_FROM ?? `"${e.LIBRARY_NAME.replace(/"/g, '')}" <${e.LIBRARY_EMAIL}>`,
    authSecret: e.AUTH_SECRET,
    facultyEmailDomains: (e.FACULTY_EMAIL_DOMAINS ?? '')
      .split(',')
      .map((domain) => domain.trim().toLowerCase())
      .filter(Boolean),
    llm: e.LLM_BASE_URL
      ? {
          baseUrl: e.LLM_BASE_URL,
          model: e.LLM_MODEL,
          apiKey: e.LLM_API_KEY,
          timeoutMs: e.LLM_TIMEOUT_MS,
        }
      : undefined,
    moderation: {
      words: (e.MODERATION_WORDS ?? '')
        .split(',')
        .map((word) => word.trim())
        .filter(Boolean),
      wordsFile: e.MODERATION_WORDS_FILE,
    },
    library: {
      name: e.LIBRARY_NAME,
      address: e.LIBRARY_ADDRESS,
      phone: e.LIBRARY_PHONE,
      email: e.LIBRARY_EMAIL,
      hours: e.LIBRARY_HOURS.split(';')
        .map((line) => line.trim())
        .filter(Boolean),
      hoursNote: e.LIBRARY_HOURS_NOTE,
      timeZone: e.LIBRARY_TIME_ZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
      loanDays: e.LOAN_DAYS,
      insightsRetentionDays: e.INSIGHTS_RETENTION_DAYS,
      social: {
        facebook: e.LIBRARY_FACEBOOK_URL,
        x: e.LIBRARY_X_URL,
        instagram: e.LIBRARY_INSTAGRAM_URL,
        linkedin: e.LIBRARY_LINKEDIN_URL,
      },
    },
  };
}
