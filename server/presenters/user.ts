import type { CurrentUser } from '#contract/http/users.ts';
import type { UserRow } from '../users/store.ts';

/** The signed-in user as the web app sees them: profile fields, never tokens or hashes. */
export function presentCurrentUser(row: UserRow): CurrentUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    name: row.name,
    role: row.role,
    phoneNumber: row.phone_number,
    institutionName: row.institution_name,
    department: row.department,
    studentId: row.student_id,
    graduationYear: row.graduation_year,
    academicProfile: { fields: row.academic_fields, interests: row.academic_interests },
    signupMethod: row.signup_method,
    profileCompleted: row.profile_completed,
    chatUsername: row.chat_username ?? '',
    ...(row.requested_role === 'faculty' ? { facultyRequest: 'waiting' as const } : {}),
    emailVerified: row.email_verified,
  };
}
