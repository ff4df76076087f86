import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  logoutResponseSchema,
  meResponseSchema,
  providersResponseSchema,
  verificationEmailResponseSchema,
  type CurrentUser,
} from '#contract/http/users.ts';
import { apiPost, apiRequest } from './client.ts';

/** Query key of the signed-in user; set it after sign-in, clear it after sign-out. */
export const SESSION_KEY = ['session'] as const;

/** The signed-in user, or null for a guest. */
export function useCurrentUser() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: async (): Promise<CurrentUser | null> =>
      (await apiRequest('/users/me', meResponseSchema)).user,
    staleTime: 60_000,
  });
}

/** Reloads the signed-in user (after sign-in or registration). */
export function useRefreshSession() {
  const queryClient = useQueryClient();
  return () => queryClient.fetchQuery({ queryKey: SESSION_KEY, staleTime: 0 });
}

/** Signs out on the server and forgets everything cached for the user. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost('/users/logout', logoutResponseSchema, {}),
    onSettled: () => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'library' });
      queryClient.setQueryData(SESSION_KEY, null);
    },
  });
}

/** Which external sign-in buttons work on this server. */
export function useSignInProviders() {
  return useQuery({
    queryKey: ['providers'],
    queryFn: () => apiRequest('/users/providers', providersResponseSchema),
    staleTime: Infinity,
  });
}

/**
 * Mails the signed-in person's verification link again (decision 026), then reloads who they
 * are: an address verified meanwhile (in another tab) takes the notice away.
 */
export function useResendVerificationEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiPost('/users/verification-email', verificationEmailResponseSchema, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SESSION_KEY }),
  });
}
