/**
 * `npm run user:create -- --email desk@uni.edu --role librarian [--first-name Ada --last-name Byron]`
 *
 * Creates an account with any role (the only way to make a librarian) and asks for its password
 * without echoing it; piped input is read as the password too, for automation. An existing
 * account keeps its password and gets the new role.
 */
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { emailSchema, passwordSchema, ROLES, type Role } from '../contract/http/users.ts';
import { createAuth } from '../server/auth/auth.ts';
import { isCommonPassword } from '../server/auth/common-passwords.ts';
import { resolveAuthSecret } from '../server/auth/secret.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrate } from '../server/db/migrate.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Reads one line from the terminal without showing it, or from piped input. */
function readPassword(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const input = process.stdin;
    const rl = createInterface({ input, output: process.stdout, terminal: input.isTTY });
    if (input.isTTY) {
      process.stdout.write(prompt);
      // Replace every echoed character: the password never appears on screen.
      (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => {};
    }
    // Resolve before closing: 'close' fires synchronously and would answer first.
    rl.once('line', (line) => {
      resolve(line);
      if (input.isTTY) process.stdout.write('\n');
      rl.close();
    });
    rl.once('close', () => resolve(''));
  });
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

const existing = await withDatabase(async (database) => {
  await migrate(database);
  return database.db
    .selectFrom('users')
    .select(['id', 'role'])
    .where('email', '=', email.data)
    .executeTakeFirst();
});

if (existing) {
  await withDatabase((database) =>
    database.db.updateTable('users').set({ role }).where('id', '=', existing.id).execute(),
  );
  console.log(
    `${email.data} already has an account: its role is now ${role} (was ${existing.role}).`,
  );
} else {
  const password = await readPassword(`Password for ${email.data}: `);
  const checked = passwordSchema.safeParse(password);
  if (!checked.success) fail(checked.error.issues[0]?.message ?? 'Invalid password');
  if (isCommonPassword(password))
    fail('This password is too common. Choose one that is harder to guess.');
  const local = email.data.split('@')[0] ?? 'Library';
  const firstName = values['first-name']?.trim() || local;
  const lastName = values['last-name']?.trim() || 'Staff';
  await withDatabase(async (database) => {
    const auth = createAuth({ config, database, secret: resolveAuthSecret(config) });
    const { user } = await auth.api.signUpEmail({
      body: { email: email.data, password, name: `${firstName} ${lastName}` },
    });
    await database.db
      .updateTable('users')
      .set({
        role,
        first_name: firstName,
        last_name: lastName,
        signup_method: 'command',
        profile_completed: true,
      })
      .where('id', '=', user.id)
      .execute();
  });
  console.log(`Created ${role} ${email.data}. They can sign in now.`);
}
