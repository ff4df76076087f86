import { APIError } from 'better-auth/api';
import type { RegisterRequest, Role } from '#contract/http/users.ts';
import type { Auth } from '../auth/auth.ts';
import type { UserRow } from '../users/store.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { Refusal } from '../refusal.ts';
import { rejectWeakPassword } from '../auth/password-strength.ts';

/** The profile columns a registration writes, from the request. */
function profileColumns(body: RegisterRequest) {
  return {
    name: `${body.firstName} ${body.lastName}`,
    first_name: body.firstName,
    last_name: body.lastName,
    phone_number: body.phoneNumber,
    role: body.role as Role,
    institution_name: body.institutionName,
    department: body.department ?? '',
    student_id: body.studentId ?? '',
    graduation_year: body.graduationYear ?? null,
    academic_fields: body.academicProfile.fields,
    academic_interests: body.academicProfile.interests,
    profile_completed: true,
  };
}

/** Refuses faculty sign-up outside the allowed e-mail domains, when the library has set any. */
export function assertRoleAllowed(config: Config, role: Role, email: string): void {
  if (role !== 'faculty' || config.facultyEmailDomains.length === 0) return;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const allowed = config.facultyEmailDomains.some(
    (entry) => domain === entry || domain.endsWith(`.${entry}`),
  );
  if (!allowed) {
    throw new Refusal(
      403,
      `Faculty accounts need an e-mail address at ${config.facultyEmailDomains.join(' or ')}. Sign up as a student, or use your staff e-mail.`,
    );
  }
}

/**
 * A form sign-up: better-auth creates the user and its password account and signs them in; we
 * then write the academic profile. Returns the headers carrying the new session cookie.
 */
export async function registerWithPassword(
  context: { auth: Auth; database: DatabaseHandle; config: Config },
  body: RegisterRequest,
  requestHeaders: Headers,
): Promise<{ headers: Headers; role: Role }> {
  const { auth, database, config } = context;
  assertRoleAllowed(config, body.role, body.email);
  const password = body.password ?? '';
  await rejectWeakPassword(password, {
    libraryName: config.library.name,
    email: body.email,
    names: [body.firstName, body.lastName],
  });
  const existing = await database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', body.email)
    .executeTakeFirst();
  if (existing) throw new Refusal(400, 'User already exists');

  let result: { headers: Headers; response: { user: { id: string } } };
  try {
    result = await auth.api.signUpEmail({
      body: { email: body.email, password, name: `${body.firstName} ${body.lastName}` },
      headers: requestHeaders,
      returnHeaders: true,
    });
  } catch (error) {
    // Two sign-ups racing for one e-mail: the loser gets the same answer as above.
    if (error instanceof APIError && /exist/i.test(error.message))
      throw new Refusal(400, 'User already exists');
    throw error;
  }
  try {
    await database.db
      .updateTable('users')
      .set({ ...profileColumns(body), signup_method: 'form' })
      .where('id', '=', result.response.user.id)
      .execute();
  } catch (error) {
    // No half-made account: without its profile the user could never finish signing up.
    await database.db.deleteFrom('users').where('id', '=', result.response.user.id).execute();
    throw error;
  }
  return { headers: result.headers, role: body.role };
}

/**
 * A provider sign-up ('Complete Your Profile'): the identity Google or the institution's provider
 * signed in has no profile yet; the signed-in user completes their own, never anyone else's.
 */
export async function completeProviderProfile(
  context: { database: DatabaseHandle; config: Config },
  user: UserRow | null,
  body: RegisterRequest,
): Promise<Role> {
  if (!user) throw new Refusal(401, 'Please sign in with your provider first.');
  if (user.profile_completed) throw new Refusal(400, 'User already exists');
  if (user.email !== body.email) {
    throw new Refusal(403, 'You can only complete the profile of the account you signed in with.');
  }
  assertRoleAllowed(context.config, body.role, body.email);
  // The provider on record decides the sign-up method, not the payload.
  const account = await context.database.db
    .selectFrom('accounts')
    .select('provider_id')
    .where('user_id', '=', user.id)
    .where('provider_id', '!=', 'credential')
    .executeTakeFirst();
  if (!account)
    throw new Refusal(400, 'This account signs in with a password: use the sign-up form.');
  await context.database.db
    .updateTable('users')
    .set({
      ...profileColumns(body),
      signup_method: account.provider_id === 'google' ? 'google' : 'oidc',
    })
    .where('id', '=', user.id)
    .execute();
  return body.role;
}
