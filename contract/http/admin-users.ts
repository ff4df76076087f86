import { z } from 'zod';
import { ROLES } from './users.ts';

/** People one page of `GET /api/admin/users` lists. */
export const ADMIN_USERS_PAGE_SIZE = 25;

/** Longest search text for people. */
export const ADMIN_USERS_QUERY_MAX = 200;

/** The reason a librarian reads before disabling an account (the screen and the API say it). */
export const DISABLE_CONSEQUENCE = 'Their sessions end at once and they cannot sign in.';

/** `GET /api/admin/users?q=&role=&page=`: people by name, e-mail or student ID, paged. */
export const adminUsersQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .max(ADMIN_USERS_QUERY_MAX, `q is at most ${ADMIN_USERS_QUERY_MAX} characters`)
    .default(''),
  role: z.enum(ROLES, { message: 'role is student, faculty or librarian' }).optional(),
  page: z.coerce
    .number('page must be a number')
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(10_000, 'page is at most 10000')
    .default(1),
});

/** One person as librarians manage them. */
export const managedUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  studentId: z.string(),
  disabled: z.boolean(),
  /** A faculty sign-up waiting for a librarian's approval (acts as a student until then). */
  pendingFaculty: z.boolean(),
  createdAt: z.string(),
});

/** `GET /api/admin/users` answer. */
export const adminUsersResponseSchema = z.object({
  users: z.array(managedUserSchema),
  page: z.number(),
  pageSize: z.number(),
  total: z.number(),
});

/**
 * `PATCH /api/admin/users/:id`: a new role, disabled / re-enabled, or a pending faculty sign-up
 * approved (the account becomes faculty) or declined (it stays a student).
 */
export const adminUserUpdateSchema = z
  .object({
    role: z.enum(ROLES, { message: 'role is student, faculty or librarian' }).optional(),
    disabled: z.boolean('disabled is true or false').optional(),
    facultyRequest: z
      .enum(['approved', 'declined'], { message: 'facultyRequest is approved or declined' })
      .optional(),
  })
  .strict()
  .refine(
    (patch) =>
      patch.role !== undefined ||
      patch.disabled !== undefined ||
      patch.facultyRequest !== undefined,
    'Nothing to change: send role, disabled or facultyRequest',
  );

/** The `:id` of an account. */
export const adminUserParamsSchema = z.object({
  id: z.string().min(1).max(100).describe("The account's id; an unknown one is a 404."),
});

/** One recorded change to an account. */
export const userChangeSchema = z.object({
  id: z.string(),
  at: z.string(),
  by: z.object({ id: z.string().nullable(), name: z.string() }),
  field: z.enum(['role', 'disabled', 'faculty_request']),
  from: z.string(),
  to: z.string(),
});

/** `GET /api/admin/users/:id/history`: newest first. */
export const userHistoryResponseSchema = z.object({ changes: z.array(userChangeSchema) });

export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;
export type AdminUserUpdate = z.output<typeof adminUserUpdateSchema>;
export type ManagedUser = z.infer<typeof managedUserSchema>;
export type UserChange = z.infer<typeof userChangeSchema>;
