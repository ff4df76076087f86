import {
  ADMIN_USERS_PAGE_SIZE,
  adminUserParamsSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  adminUserUpdateSchema,
  managedUserSchema,
  userHistoryResponseSchema,
} from '#contract/http/admin-users.ts';
import { editorOf } from '../../catalogue/editing.ts';
import { parseInput } from '../../http/errors.ts';
import { presentManagedUser, presentUserChange } from '../../presenters/admin-users.ts';
import { userRoom } from '../../realtime/index.ts';
import { accountHistory, changeAccount, searchAccounts } from '../../users/accounts.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/**
 * Librarians manage people (issue 20): find an account by name, e-mail or student ID, change its
 * role, disable or re-enable it, and read its recorded changes.
 */
export async function adminUserRoutes(
  app: DeclaringInstance,
  context: RouteContext,
): Promise<void> {
  const db = context.database.db;

  app.get(
    '/admin/users',
    declareRoute({
      tag: 'admin-users',
      summary: 'Find people by name, e-mail or student ID',
      description: `Paged, ${ADMIN_USERS_PAGE_SIZE} a page, by name.`,
      access: ['librarian'],
      query: adminUsersQuerySchema,
      response: adminUsersResponseSchema,
    }),
    async (request) => {
      const query = parseInput(adminUsersQuerySchema, request.query);
      const { rows, total } = await searchAccounts(db, query);
      return {
        users: rows.map(presentManagedUser),
        page: query.page,
        pageSize: ADMIN_USERS_PAGE_SIZE,
        total,
      };
    },
  );

  app.patch(
    '/admin/users/:id',
    declareRoute({
      tag: 'admin-users',
      summary: "Change a person's role, or disable or re-enable their account",
      description:
        "Disabling ends the account's sessions and sockets at once; it cannot sign in until re-enabled. Every change is recorded.",
      access: ['librarian'],
      params: adminUserParamsSchema,
      body: adminUserUpdateSchema,
      response: managedUserSchema,
      errors: {
        409: 'Your own role or account, or the last enabled librarian: the message says which.',
      },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const patch = parseInput(adminUserUpdateSchema, request.body);
      const { row, changed } = await changeAccount(db, request.params.id, patch, editorOf(caller));
      // Open sockets carry the role they connected with: they reconnect as the account is now,
      // and a disabled account's are refused.
      if (changed) request.server.io.in(userRoom(row.id)).disconnectSockets(true);
      return presentManagedUser(row);
    },
  );

  app.get(
    '/admin/users/:id/history',
    declareRoute({
      tag: 'admin-users',
      summary: "An account's recorded changes, newest first",
      access: ['librarian'],
      params: adminUserParamsSchema,
      response: userHistoryResponseSchema,
    }),
    async (request) => ({
      changes: (await accountHistory(db, request.params.id)).map(presentUserChange),
    }),
  );
}
