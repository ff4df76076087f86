/**
 * `npm run user:create -- --email desk@uni.edu --role librarian [--first-name Ada --last-name Byron]`
 *
 * Creates an account with any role (the only way to make a librarian) and asks for its password
 * without echoing it; piped input is read as the password too, for automation. An existing
 * account keeps its password and gets the new role.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { read } from 'read';
import { emailSchema, passwordSchema, ROLES, type Role } from '#contract/http/users.ts';
import { createAuth } from '#server/auth/auth.ts';
import { weakPasswordMessage } from '#server/auth/password-strength.ts';
import { resolveAuthSecret } from '#server/auth/secret.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { allowedOrigins } from '#server/http/origins.ts';
import { migrate } from '#server/db/migrate.ts';
import { HeldByAnotherProcessError, lockDataDir } from '#server/db/data-dir-lock.ts';
import { passwordHasher } from '#server/auth/password.ts';
import {
  leaveGrant,
  takeGrantResult,
  withdrawGrant,
  type GrantResult,
} from '#server/users/grants.ts';
import { completeStaffProfile, findAccountByEmail, setRole } from '#server/users/store.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * Reads one line from the terminal without showing it, or from piped input. Input that ends
 * before a line (nothing piped) answers an empty password, which the length rule then refuses.
 */
async function readPassword(prompt: string): Promise<string> {
  const line = read({ prompt, silent: true });
  const ended = new Promise<string>((resolve) => process.stdin.once('end', () => resolve('')));
  // read() refuses on Ctrl+C.
  const answer = await Promise.race([line, ended]).catch(() => undefined);
  // Muted, the terminal never showed the Enter either.
  if (process.stdout.isTTY) process.stdout.write('\n');
  if (answer === undefined) fail('Cancelled: no account created.');
  return answer;
}

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    role: { type: 'string', default: 'librarian' },
    'first-name': { type: 'string' },
    'last-name': { type: 'string' },
  },
});

const email = emailSchema.safeParse(values.email ?? '');
if (!email.success)
  fail('Give a valid --email, e.g. npm run user:create -- --email desk@uni.edu --role librarian');
if (!ROLES.includes(values.role as Role)) fail(`--role must be one of ${ROLES.join(', ')}`);
const role = values.role as Role;

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

/** Runs `fn` on the configured database, closing it afterwards (the prompt runs with none open). */
async function withDatabase<T>(
  fn: (database: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(config).catch((error: Error) => fail(error.message));
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** The names a new account gets: as given, or from the e-mail. */
function staffNames() {
  const local = email.data!.split('@')[0] ?? 'Library';
  return {
    firstName: values['first-name']?.trim() || local,
    lastName: values['last-name']?.trim() || 'Staff',
  };
}

/** Asks for the new account's password and checks it as sign-up would. */
async function newPassword(): Promise<string> {
  const password = await readPassword(`Password for ${email.data}: `);
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) fail(checked.error.issues[0]?.message ?? 'Invalid password');
  const { firstName, lastName } = staffNames();
  const weak = await weakPasswordMessage(password, {
    libraryName: config.library.name,
    email: email.data!,
    names: [firstName, lastName],
  });
  if (weak) fail(weak);
  return password;
}

/** How long to wait for a running server to apply a grant. */
const GRANT_WAIT_MS = 20_000;

/**
 * The embedded database is open in a running server, and one process at a time may open it:
 * leave a grant for the server (server/users/grants.ts) and wait for its answer.
 */
async function grantThroughServer(): Promise<void> {
  const ask = async (passwordHash?: string): Promise<GrantResult> => {
    const id = await leaveGrant(config.dataDir, {
      email: email.data!,
      role,
      ...staffNames(),
      ...(passwordHash ? { passwordHash } : {}),
    });
    const until = Date.now() + GRANT_WAIT_MS;
    while (Date.now() < until) {
      const result = await takeGrantResult(config.dataDir, id);
      if (result) return result;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (passwordHash) {
      // A new account waits for the next start rather than being lost.
      console.log(
        `The server did not answer within ${GRANT_WAIT_MS / 1000} s. The account will be created when it next starts.`,
      );
      process.exit(0);
    }
    await withdrawGrant(config.dataDir, id);
    fail('The server holding the database did not answer. Is it still starting? Try again.');
  };
  console.log('The server is running on this database: asking it to make the change.');
  let result = await ask();
  if (!result.done) result = await ask(await passwordHasher.hash(await newPassword()));
  if (result.done && result.failed) fail(result.message);
  console.log(result.message);
}

async function grantDirectly(): Promise<void> {
  const existing = await withDatabase(async (database) => {
    await migrate(database);
    return findAccountByEmail(database.db, email.data!);
  });
  if (existing) {
    await withDatabase((database) => setRole(database.db, existing.id, role));
    console.log(
      `${email.data} already has an account: its role is now ${role} (was ${existing.role}).`,
    );
    return;
  }
  const password = await newPassword();
  const { firstName, lastName } = staffNames();
  await withDatabase(async (database) => {
    const auth = createAuth({
      config,
      database,
      secret: resolveAuthSecret(config),
      trustedOrigins: allowedOrigins(config),
    });
    const { user } = await auth.api.signUpEmail({
      body: { email: email.data!, password, name: `${firstName} ${lastName}` },
    });
    await completeStaffProfile(database.db, user.id, { role, firstName, lastName });
  });
  console.log(`Created ${role} ${email.data}. They can sign in now.`);
}

// PostgreSQL is shared by design; the embedded database only while no server has it open.
const held = !config.databaseUrl && (await embeddedDatabaseHeld());
await (held ? grantThroughServer() : grantDirectly());

/** True when another process (a running server) holds the embedded database's lock. */
async function embeddedDatabaseHeld(): Promise<boolean> {
  if (!existsSync(config.dataDir)) return false;
  try {
    const release = lockDataDir(config.dataDir);
    release();
    return false;
  } catch (error) {
    if (error instanceof HeldByAnotherProcessError) return true;
    throw error;
  }
}
