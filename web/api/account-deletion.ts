import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accountDeletionPreviewSchema,
  accountDeletionResponseSchema,
  type AccountDeletionRequest,
} from '#contract/http/users.ts';
import { apiPost, apiRequest } from './client.ts';
import { SESSION_KEY } from './session.ts';

/** Query key of what deleting one's account would do. */
export const DELETION_PREVIEW_KEY = ['account-deletion'] as const;

/** What deleting the signed-in account would do (`GET /api/users/me/deletion`), read fresh. */
export function useAccountDeletionPreview() {
  return useQuery({
    queryKey: DELETION_PREVIEW_KEY,
    queryFn: () => apiRequest('/users/me/deletion', accountDeletionPreviewSchema),
    staleTime: 0,
  });
}

/**
 * Deletes the signed-in account (`DELETE /api/users/me`); once it is gone, forgets everything
 * cached for it, as signing out does.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (confirmation: AccountDeletionRequest) =>
      apiPost('/users/me', accountDeletionResponseSchema, confirmation, { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'library' });
      queryClient.setQueryData(SESSION_KEY, null);
    },
  });
}
