import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminUsersResponseSchema,
  managedUserSchema,
  type AdminUserUpdate,
} from '#contract/http/admin-users.ts';
import type { Role } from '#contract/http/users.ts';
import { apiPost, apiRequest } from './client.ts';

/** What `/desk/people` asks for: search text, a role or every role, and a page. */
export interface PeopleSearch {
  q: string;
  role: Role | '';
  page: number;
}

const PEOPLE_KEY = ['admin-users'] as const;

/** One page of people matching the search (librarians). */
export function usePeople({ q, role, page }: PeopleSearch) {
  const params = new URLSearchParams({ q, page: String(page) });
  if (role) params.set('role', role);
  return useQuery({
    queryKey: [...PEOPLE_KEY, q, role, page],
    queryFn: () => apiRequest(`/admin/users?${params}`, adminUsersResponseSchema),
    // The table stays while the next page or search loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** Changes a person's role or disables or re-enables them; every list is read again after. */
export function useChangePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: AdminUserUpdate }) =>
      apiPost(`/admin/users/${encodeURIComponent(id)}`, managedUserSchema, patch, {
        method: 'PATCH',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PEOPLE_KEY }),
  });
}
