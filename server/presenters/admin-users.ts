import type { ManagedUser, UserChange } from '#contract/http/admin-users.ts';
import { isPendingFaculty, type UserChangeRow } from '../users/accounts.ts';
import type { UserRow } from '../users/store.ts';

/** An account as librarians manage it: who, how to reach them, role and state; no secrets. */
export function presentManagedUser(row: UserRow): ManagedUser {
  return {
    id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim() || row.name,
    email: row.email,
    role: row.role,
    studentId: row.student_id,
    disabled: row.disabled_at !== null,
    pendingFaculty: isPendingFaculty(row),
    createdAt: row.created_at.toISOString(),
  };
}

/** One recorded change to an account. */
export function presentUserChange(row: UserChangeRow): UserChange {
  return {
    id: String(row.id),
    at: row.changed_at.toISOString(),
    by: { id: row.changed_by, name: row.changed_by_name },
    field: row.field,
    from: row.from_value,
    to: row.to_value,
  };
}
