import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import {
  ADMIN_USERS_PAGE_SIZE,
  type AdminUsersQuery,
  type AdminUserUpdate,
} from '#contract/http/admin-users.ts';
import type { Role } from '#contract/http/users.ts';
import type { Editor } from '../catalogue/editing.ts';
import { isAccountId } from '../db/ids.ts';
import type { Database, UserChangesTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import type { UserRow } from './store.ts';

/** A recorded change to an account. */
export type UserChangeRow = Selectable<UserChangesTable>;

const NO_SUCH_ACCOUNT = 'There is no such account.';

/**
 * A faculty sign-up waiting for a librarian (decision 025): a student asking to be faculty. An
 * account given another role by other means (`npm run user:create`) is no longer waiting.
 */
export const isPendingFaculty = (row: Pick<UserRow, 'role' | 'requested_role'>) =>
  row.requested_role === 'faculty' && row.role === 'student';

/** `text` escaped for a LIKE pattern, so that `%` and `_` in a search mean themselves. */
const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (match) => `\\${match}`);

/**
 * One page of accounts whose name, e-mail or student ID contains `q` (any case), of `role` when
 * given, by name; with how many there are in all.
 */
export async function searchAccounts(
  db: Kysely<Database>,
  { q, role, page }: AdminUsersQuery,
): Promise<{ rows: UserRow[]; total: number }> {
  let query = db.selectFrom('users');
  if (q) {
    const pattern = `%${likeEscaped(q)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('name', 'ilike', pattern),
        eb(sql<string>`first_name || ' ' || last_name`, 'ilike', pattern),
        eb('email', 'ilike', pattern),
        eb('student_id', 'ilike', pattern),
      ]),
    );
  }
  if (role) query = query.where('role', '=', role);
  const [rows, count] = await Promise.all([
    query
      .selectAll()
      // Faculty sign-ups waiting for a librarian come first: they are what needs doing.
      .orderBy(sql`NOT (requested_role IS NOT NULL AND role = 'student')`)
      .orderBy(sql`lower(first_name || ' ' || last_name)`)
      .orderBy('email')
      .limit(ADMIN_USERS_PAGE_SIZE)
      .offset((page - 1) * ADMIN_USERS_PAGE_SIZE)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Records one change to an account, in `trx`. */
async function record(
  trx: Transaction<Database>,
  userId: string,
  editor: Editor,
  field: UserChangeRow['field'],
  from: string,
  to: string,
): Promise<void> {
  await trx
    .insertInto('user_changes')
    .values({
      user_id: userId,
      changed_by: editor.id,
      changed_by_name: editor.name,
      field,
      from_value: from,
      to_value: to,
    })
    .execute();
}

/** Why the last enabled librarian cannot stop being one (demoted, disabled or deleted). */
export const LAST_LIBRARIAN_MESSAGE =
  'This is the last librarian: make someone else a librarian first, or nobody can manage the library.';

/**
 * Locks the enabled librarians' rows in id order inside `trx` and answers them: whoever may take
 * a librarian away (a role change, a deletion) takes this first, so two at once go in turn.
 */
export async function lockEnabledLibrarians(trx: Transaction<Database>): Promise<{ id: string }[]> {
  return trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'librarian')
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .forUpdate()
    .execute();
}

/**
 * Changes an account's role or disables or re-enables it, as the librarian `editor`, recording
 * each change. A librarian cannot demote or disable themselves, and the last enabled librarian
 * is never demoted or disabled: the enabled librarians' rows are locked first (in id order), so
 * two librarians demoting each other at once are decided one after the other and one of them
 * stays. Disabling ends every session of the account in the same transaction. `changed` says
 * whether anything changed (the caller then ends the account's sockets).
 */
export async function changeAccount(
  db: Kysely<Database>,
  id: string,
  patch: AdminUserUpdate,
  editor: Editor,
): Promise<{ row: UserRow; changed: boolean }> {
  if (!isAccountId(id)) throw new Refusal(404, NO_SUCH_ACCOUNT);
  return db.transaction().execute(async (trx) => {
    const librarians = await lockEnabledLibrarians(trx);
    const before = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw new Refusal(404, NO_SUCH_ACCOUNT);

    const pending = isPendingFaculty(before);
    if (patch.facultyRequest && !pending) {
      throw new Refusal(409, 'This account has no faculty sign-up waiting for approval.');
    }
    const role: Role =
      patch.role ?? (patch.facultyRequest === 'approved' ? 'faculty' : before.role);
    // Any decision on the role settles a waiting faculty sign-up.
    const settles = pending && (patch.facultyRequest !== undefined || role !== before.role);
    const wasDisabled = before.disabled_at !== null;
    const disabled = patch.disabled ?? wasDisabled;
    const losesLibrarian =
      before.role === 'librarian' && !wasDisabled && (role !== 'librarian' || disabled);
    if (id === editor.id && role !== 'librarian') {
      throw new Refusal(409, 'You cannot change your own role: ask another librarian.');
    }
    if (id === editor.id && disabled) {
      throw new Refusal(409, 'You cannot disable your own account: ask another librarian.');
    }
    if (losesLibrarian && librarians.length <= 1) {
      throw new Refusal(409, LAST_LIBRARIAN_MESSAGE);
    }
    // The caller may have been demoted or disabled a moment ago by another librarian.
    if (!librarians.some((librarian) => librarian.id === editor.id)) {
      throw new Refusal(403, 'Your account is not allowed to do this.');
    }
    if (role === before.role && disabled === wasDisabled && !settles) {
      return { row: before, changed: false };
    }

    const row = await trx
      .updateTable('users')
      .set({
        role,
        disabled_at: disabled === wasDisabled ? before.disabled_at : disabled ? new Date() : null,
        requested_role: settles ? null : before.requested_role,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (settles) {
      const outcome = role === 'student' ? 'declined' : 'approved';
      await record(trx, id, editor, 'faculty_request', 'pending', outcome);
    }
    if (role !== before.role) await record(trx, id, editor, 'role', before.role, role);
    if (disabled !== wasDisabled) {
      await record(trx, id, editor, 'disabled', String(wasDisabled), String(disabled));
    }
    // Its sessions end now: an old cookie names no session any more.
    if (disabled && !wasDisabled) {
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
    }
    return { row, changed: true };
  });
}

/** An account's recorded changes, newest first (at most `limit`). */
export async function accountHistory(
  db: Kysely<Database>,
  id: string,
  limit = 200,
): Promise<UserChangeRow[]> {
  if (!isAccountId(id)) throw new Refusal(404, NO_SUCH_ACCOUNT);
  const user = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
  if (!user) throw new Refusal(404, NO_SUCH_ACCOUNT);
  return db
    .selectFrom('user_changes')
    .selectAll()
    .where('user_id', '=', id)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Whether the account with `id` is disabled (a sign-in is refused before its session exists). */
export async function isDisabled(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('disabled_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.disabled_at != null;
}
