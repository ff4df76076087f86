import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Role } from '#contract/http/users.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database } from '../db/schema.ts';
import { completeStaffProfile, findAccountByEmail, setRole } from './store.ts';

/**
 * Staff grants (`npm run user:create` while the server has the embedded database open): the
 * command cannot open the database then (one process at a time may), so it leaves a grant in
 * `DATA_DIR/grants/` and the server applies it, at once if it is running and otherwise at its next
 * start, and answers in a result file beside it. Only whoever can write the data folder (the
 * server's own account) can leave one, and a grant never carries a password, only its hash.
 */

/** The folder under DATA_DIR where grants wait. */
export const GRANTS_FOLDER = 'grants';

/** What the command asks for. */
export interface Grant {
  id: string;
  email: string;
  role: Role;
  firstName: string;
  lastName: string;
  /** The new account's password hash (server/auth/password.ts); absent when asking first. */
  passwordHash?: string;
}

/** What the server answers: done, or it needs a password (no account has that e-mail). */
export type GrantResult =
  | { done: true; failed?: true; message: string }
  | { done: false; needsPassword: true; message: string };

const grantFile = (dataDir: string, id: string) =>
  path.join(dataDir, GRANTS_FOLDER, `${id}.grant.json`);
const resultFile = (dataDir: string, id: string) =>
  path.join(dataDir, GRANTS_FOLDER, `${id}.result.json`);

/** Writes `content` to `file` whole (a reader never sees half of it), readable by its owner only. */
async function writeWhole(file: string, content: unknown): Promise<void> {
  const partial = `${file}.${randomUUID()}.partial`;
  await writeFile(partial, JSON.stringify(content), { mode: 0o600 });
  await rename(partial, file);
}

/** Leaves a grant for the server; returns its id. */
export async function leaveGrant(dataDir: string, grant: Omit<Grant, 'id'>): Promise<string> {
  await mkdir(path.join(dataDir, GRANTS_FOLDER), { recursive: true, mode: 0o700 });
  const id = randomUUID();
  await writeWhole(grantFile(dataDir, id), { id, ...grant });
  return id;
}

/** The server's answer to grant `id`, once there is one (the result file is then removed). */
export async function takeGrantResult(dataDir: string, id: string): Promise<GrantResult | null> {
  try {
    const result = JSON.parse(await readFile(resultFile(dataDir, id), 'utf8')) as GrantResult;
    await rm(resultFile(dataDir, id), { force: true });
    return result;
  } catch {
    return null;
  }
}

/** Withdraws a grant the server has not applied (the command gave up waiting and says so). */
export async function withdrawGrant(dataDir: string, id: string): Promise<void> {
  await rm(grantFile(dataDir, id), { force: true });
}

/**
 * Applies one grant: an existing account gets the role; a new one is created with the password
 * hash through better-auth's own adapter (as its sign-up would), with a complete staff profile.
 */
export async function applyGrant(
  db: Kysely<Database>,
  auth: Auth,
  grant: Grant,
): Promise<GrantResult> {
  const existing = await findAccountByEmail(db, grant.email);
  if (existing) {
    await setRole(db, existing.id, grant.role);
    return {
      done: true,
      message: `${grant.email} already has an account: its role is now ${grant.role} (was ${existing.role}).`,
    };
  }
  if (!grant.passwordHash) {
    return {
      done: false,
      needsPassword: true,
      message: `No account has ${grant.email} yet: a password is needed.`,
    };
  }
  const context = await auth.$context;
  const user = await context.internalAdapter.createUser(
    { email: grant.email, name: `${grant.firstName} ${grant.lastName}`, emailVerified: true },
    // The same origin as a password sign-up: a new account with a password.
    { method: 'email-password' },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: grant.passwordHash,
  });
  await completeStaffProfile(db, user.id, grant);
  return { done: true, message: `Created ${grant.role} ${grant.email}. They can sign in now.` };
}

/** Applies every grant waiting in the folder, oldest first, answering each in its result file. */
export async function applyWaitingGrants(
  db: Kysely<Database>,
  auth: Auth,
  dataDir: string,
  log: {
    info: (object: object, message: string) => void;
    warn: (object: object, message: string) => void;
  },
): Promise<number> {
  const folder = path.join(dataDir, GRANTS_FOLDER);
  const names = await readdir(folder).catch(() => [] as string[]);
  let applied = 0;
  for (const name of names.filter((entry) => entry.endsWith('.grant.json')).sort()) {
    const file = path.join(folder, name);
    let grant: Grant;
    try {
      grant = JSON.parse(await readFile(file, 'utf8')) as Grant;
    } catch {
      continue; // Taken by another pass, or not a grant.
    }
    let result: GrantResult;
    try {
      result = await applyGrant(db, auth, grant);
      log.info({ email: grant.email, role: grant.role }, 'applied a staff grant');
    } catch (error) {
      log.warn({ err: error, email: grant.email }, 'could not apply a staff grant');
      result = {
        done: true,
        failed: true,
        message: `Could not apply the grant: ${(error as Error).message}`,
      };
    }
    await rm(file, { force: true });
    await writeWhole(resultFile(dataDir, grant.id), result);
    applied += 1;
  }
  return applied;
}

/**
 * Applies waiting grants now and whenever one arrives, one pass at a time. Returns a stop
 * function. The folder is watched (and looked at every few seconds, as a watch can miss events
 * on some file systems).
 */
export async function watchGrants(
  db: Kysely<Database>,
  auth: Auth,
  dataDir: string,
  log: Parameters<typeof applyWaitingGrants>[3],
): Promise<() => void> {
  const folder = path.join(dataDir, GRANTS_FOLDER);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  let running: Promise<unknown> = Promise.resolve();
  let again = false;
  const pass = () => {
    if (again) return;
    again = true;
    running = running.then(async () => {
      again = false;
      await applyWaitingGrants(db, auth, dataDir, log).catch((error: unknown) =>
        log.warn({ err: error }, 'staff grants pass failed'),
      );
    });
  };
  pass();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(folder, pass);
    watcher.on('error', () => {});
  } catch {
    // No watch on this file system: the timer below is enough.
  }
  const timer = setInterval(pass, 3_000);
  timer.unref();
  return () => {
    watcher?.close();
    clearInterval(timer);
  };
}
