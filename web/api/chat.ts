import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CurrentUser } from '#contract/http/users.ts';
import { createModerator, type Moderator } from '#contract/moderation.ts';
import {
  chatUsernameResponseSchema,
  moderationWordsResponseSchema,
} from '#contract/socket/chat.ts';
import { apiPost, apiRequest } from './client.ts';
import { SESSION_KEY } from './session.ts';

/**
 * Saves the forum username on the profile, so it survives reloads and follows the person to
 * other devices. The session is updated with the answer at once, then reloaded.
 */
export function useSaveChatUsername() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (username: string) =>
      apiPost('/users/chat-username', chatUsernameResponseSchema, { username }, { method: 'PUT' }),
    onSuccess: ({ username }) => {
      queryClient.setQueryData<CurrentUser | null>(SESSION_KEY, (user) =>
        user ? { ...user, chatUsername: username } : user,
      );
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

/** The last matcher built, by its word list: building compiles hundreds of expressions. */
let built: { key: string; moderator: Moderator } | undefined;

function moderatorFor(words: readonly string[]): Moderator {
  const key = JSON.stringify(words);
  if (built?.key !== key) built = { key, moderator: createModerator(words) };
  return built.moderator;
}

/**
 * The shared abuse matcher with the library's extra words, checked before a message leaves the
 * browser (the server checks again). Until the words arrive, or if they cannot be loaded, the
 * built-in list still applies.
 */
export function useModerator() {
  const { data } = useQuery({
    queryKey: ['chat', 'moderation-words'],
    queryFn: async () =>
      (await apiRequest('/chat/moderation-words', moderationWordsResponseSchema)).words,
    staleTime: Infinity,
  });
  return useMemo(() => moderatorFor(data ?? []), [data]);
}
