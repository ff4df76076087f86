import { APIError } from 'better-auth/api';
import { emailVerifiedLanding, type RegisterRequest, type Role } from '#contract/http/users.ts';
import type { Auth } from '../auth/auth.ts';
import type { UserRow } from '../users/store.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { Refusal } from '../refusal.ts';
import { rejectWeakPassword } from '../auth/password-strength.ts';

/** The profile columns a registration writes, from the request and the role it was given. */
function profileColumns(body: RegisterRequest, granted: SignUpRole) {
  return {
    name: `${body.firstName} ${body.lastName}`,
    first_name: body.firstName,
    last_name: body.lastName,
    phone_number: body.phoneNumber,
    role: granted.role,
    requested_role: granted.requestedRole,
    institution_name: body.institutionName,
    department: body.department ?? '',
    student_id: body.studentId ?? '',
    graduation_year: body.graduationYear ?? null,
    academic_fields: body.academicProfile.fields,
    academic_interests: body.academicProfile.interests,
    profile_completed: true,
  };
}

/** The role a sign-up gets now, and the role it waits for a librarian to grant, if any. */
export interface SignUpRole {
  role: Role;
  requestedRole: 'faculty' | null;
}

/**
 * The role a sign-up asking for `role` gets (decision 025): faculty at once with an e-mail at one
 * of FACULTY_EMAIL_DOMAINS (or a subdomain); otherwise, or when none are set, a student whose
 * faculty request waits for a librarian on /desk/people. Students are students.
 */
export function signUpRole(config: Config, role: Role, email: string): SignUpRole {
  if (role !== 'faculty') return { role, requestedRole: null };
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const trusted = config.facultyEmailDomains.some(
    (entry) => domain === entry || domain.endsWith(`.${entry}`),
  );
  return trusted
    ? { role: 'faculty', requestedRole: null }
    : { role: 'student', requestedRole: 'faculty' };
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
  const granted = signUpRole(config, body.role, body.email);
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
      body: {
        email: body.email,
        password,
        name: `${body.firstName} ${body.lastName}`,
        // Where the mailed verification link lands, signed in (decision 026).
        callbackURL: emailVerifiedLanding(granted.role),
      },
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
      .set({ ...profileColumns(body, granted), signup_method: 'form' })
      .where('id', '=', result.response.user.id)
      .execute();
  } catch (error) {
    // No half-made account: without its profile the user could never finish signing up.
    await database.db.deleteFrom('users').where('id', '=', result.response.user.id).execute();
    throw error;
  }
  // A pending faculty sign-up answers 'student': the client lands on the student home it may use.
  return { headers: result.headers, role: granted.role };
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
  const granted = signUpRole(context.config, body.role, body.email);
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
      ...profileColumns(body, granted),
      signup_method: account.provider_id === 'google' ? 'google' : 'oidc',
      // The provider signed the person in with this address: it counts as verified (decision 026).
      email_verified: true,
    })
    .where('id', '=', user.id)
    .execute();
  return granted.role;
}
