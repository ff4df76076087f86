import type { Kysely, Selectable } from 'kysely';
import type { ProfileUpdate, Role } from '#contract/http/users.ts';
import type { PasswordContext } from '../auth/password-strength.ts';
import type { Auth } from '../auth/auth.ts';
import type { Database, UsersTable } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { nameSkeleton } from '../chat/names.ts';

/** A user row as the server reads it. */
export type UserRow = Selectable<UsersTable>;

/** The whole row of the user with `id`, or undefined when there is none. */
export async function findUser(db: Kysely<Database>, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The user whose session has `token`, with the session's id and end, in one statement (the
 * guards' and sockets' every call: `readSession` in server/auth/session.ts); undefined when no
 * session has it or its user is gone.
 */
export async function findSessionUser(
  db: Kysely<Database>,
  token: string,
): Promise<(UserRow & { session_id: string; session_expires_at: Date }) | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.expires_at as session_expires_at'])
    .where('sessions.token', '=', token)
    .executeTakeFirst();
}

/** The role and whether the profile is complete, of the account with `email`, if any. */
export async function findSignUpState(
  db: Kysely<Database>,
  email: string,
): Promise<{ role: Role; profile_completed: boolean } | undefined> {
  return db
    .selectFrom('users')
    .select(['role', 'profile_completed'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** The id and role of the account with `email`, if any. */
export async function findAccountByEmail(
  db: Kysely<Database>,
  email: string,
): Promise<{ id: string; role: Role } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'role'])
    .where('email', '=', email)
    .executeTakeFirst();
}

/** Gives the user with `id` the role `role`, which settles a faculty sign-up that waited. */
export async function setRole(db: Kysely<Database>, id: string, role: Role): Promise<void> {
  await db.updateTable('users').set({ role, requested_role: null }).where('id', '=', id).execute();
}

/**
 * Completes the profile of an account staff made (`npm run user:create`): its names and role,
 * with no academic details to ask for. Its address counts as verified: staff vouch for it
 * (decision 026).
 */
export async function completeStaffProfile(
  db: Kysely<Database>,
  id: string,
  profile: { role: Role; firstName: string; lastName: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      role: profile.role,
      first_name: profile.firstName,
      last_name: profile.lastName,
      signup_method: 'command',
      profile_completed: true,
      email_verified: true,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Changes one's own profile fields (My account) and answers the account as it now is; the display
 * name follows the first and last names.
 */
export async function updateProfile(
  db: Kysely<Database>,
  id: string,
  patch: ProfileUpdate,
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['first_name', 'last_name'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const firstName = patch.firstName ?? before.first_name;
    const lastName = patch.lastName ?? before.last_name;
    await trx
      .updateTable('users')
      .set({
        ...(patch.firstName !== undefined ? { first_name: patch.firstName } : {}),
        ...(patch.lastName !== undefined ? { last_name: patch.lastName } : {}),
        ...(patch.firstName !== undefined || patch.lastName !== undefined
          ? { name: `${firstName} ${lastName}`.trim() }
          : {}),
        ...(patch.phoneNumber !== undefined ? { phone_number: patch.phoneNumber } : {}),
        ...(patch.institutionName !== undefined ? { institution_name: patch.institutionName } : {}),
        ...(patch.department !== undefined ? { department: patch.department } : {}),
        ...(patch.studentId !== undefined ? { student_id: patch.studentId } : {}),
        ...(patch.graduationYear !== undefined ? { graduation_year: patch.graduationYear } : {}),
        ...(patch.academicProfile !== undefined
          ? {
              academic_fields: patch.academicProfile.fields,
              academic_interests: patch.academicProfile.interests,
            }
          : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  });
}

/** Whether the account `id` has verified its e-mail address (false when there is none). */
export async function isEmailVerified(db: Kysely<Database>, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('email_verified')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.email_verified ?? false;
}

/** The role of the user with `id`, who must exist (one who just signed in). */
export async function userRole(db: Kysely<Database>, id: string): Promise<Role> {
  const user = await db
    .selectFrom('users')
    .select('role')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return user.role;
}

/**
 * Whose password a reset link changes, so that their names and e-mail count against the new
 * one. better-auth keeps the link's token as `reset-password:<token>` naming the user; an
 * unknown or expired token leaves only the library's name (better-auth refuses it afterwards).
 */
export async function resetTokenOwner(
  { auth, db }: { auth: Auth; db: Kysely<Database> },
  token: string,
  libraryName: string,
): Promise<PasswordContext> {
  const library: PasswordContext = { libraryName };
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
}

/**
 * Keeps the username a person chats under on their profile, so it follows them across devices,
 * with its skeleton. False, changing nothing, when another person's username has the same
 * skeleton: the same name but for case, width or look-alike letters (server/chat/names.ts).
 */
export async function setChatUsername(
  db: Kysely<Database>,
  userId: string,
  username: string,
): Promise<boolean> {
  try {
    await db
      .updateTable('users')
      .set({
        chat_username: username,
        chat_username_skeleton: nameSkeleton(username),
        updated_at: new Date(),
      })
      .where('id', '=', userId)
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The name the chat shows for a user: the forum username, else the first name. */
export async function findChatName(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('users')
    .select(['chat_username', 'first_name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? (row.chat_username ?? row.first_name) : undefined;
}
