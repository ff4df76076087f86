import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import type { z } from 'zod';
import {
  markNoticesReadResponseSchema,
  noticePreferencesSchema,
  noticesResponseSchema,
  unsubscribeResponseSchema,
  type NoticeKind,
  type NoticePreferences,
} from '#contract/http/notices.ts';
import { noticesChangedSchema } from '#contract/socket/notices.ts';
import { apiPost, apiRequest } from './client.ts';

/** Everything cached about the caller's notices; sign-out clears it with the rest. */
export const NOTICES_KEY = ['notices'] as const;
/** The pages of the notices list, newest first. */
export const NOTICE_LIST_KEY = [...NOTICES_KEY, 'list'] as const;
/** The caller's unread count, as the bell shows it. */
export const UNREAD_NOTICES_KEY = [...NOTICES_KEY, 'unread'] as const;
/** Per kind, whether a notice also comes by e-mail. */
export const NOTICE_PREFERENCES_KEY = [...NOTICES_KEY, 'preferences'] as const;

/** How many notices one "Load older" brings. */
export const NOTICES_PAGE_SIZE = 20;

type NoticesPage = z.infer<typeof noticesResponseSchema>;

/** What a mark-read names: some notices, or all of the caller's. */
export type MarkNoticesRead = { ids: string[] } | { all: true };

/**
 * The caller's notices, newest first, a page at a time: `fetchNextPage()` loads older ones
 * (`before` the last one shown). Each page also brings the unread count, which the bell shares.
 */
export function useNotices() {
  const queryClient = useQueryClient();
  return useInfiniteQuery({
    queryKey: NOTICE_LIST_KEY,
    queryFn: async ({ pageParam }) => {
      const query = new URLSearchParams({ limit: String(NOTICES_PAGE_SIZE) });
      if (pageParam) query.set('before', pageParam);
      const page = await apiRequest(`/notices?${query}`, noticesResponseSchema);
      queryClient.setQueryData(UNREAD_NOTICES_KEY, page.unread);
      return page;
    },
    initialPageParam: '',
    getNextPageParam: (last: NoticesPage) =>
      last.hasMore ? last.payload[last.payload.length - 1]?.id : undefined,
  });
}

/** The caller's unread count (the list's smallest page answers it); off while `enabled` is false. */
export function useUnreadNotices(enabled = true) {
  return useQuery({
    queryKey: UNREAD_NOTICES_KEY,
    queryFn: async () => (await apiRequest('/notices?limit=1', noticesResponseSchema)).unread,
    enabled,
  });
}

/**
 * Marks notices read (some by id, or all), then puts the server's unread count in the bell and
 * the read time on the notices already listed, without loading the list again.
 */
export function useMarkNoticesRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: MarkNoticesRead) =>
      apiPost('/notices/read', markNoticesReadResponseSchema, target),
    onSuccess: ({ unread }, target) => {
      queryClient.setQueryData(UNREAD_NOTICES_KEY, unread);
      const readAt = new Date().toISOString();
      const marked = (id: string) => 'all' in target || target.ids.includes(id);
      queryClient.setQueryData<InfiniteData<NoticesPage, string>>(NOTICE_LIST_KEY, (data) =>
        data
          ? {
              ...data,
              pages: data.pages.map((page) => ({
                ...page,
                unread,
                payload: page.payload.map((notice) =>
                  notice.readAt === null && marked(notice.id) ? { ...notice, readAt } : notice,
                ),
              })),
            }
          : data,
      );
    },
  });
}

/** Per kind, whether the caller also gets the notice by e-mail. */
export function useNoticePreferences() {
  return useQuery({
    queryKey: NOTICE_PREFERENCES_KEY,
    queryFn: () => apiRequest('/users/me/notices', noticePreferencesSchema),
  });
}

/** Saves e-mail choices (the kinds given; the others stay) and keeps the server's answer. */
export function useSaveNoticePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: Partial<Record<NoticeKind, boolean>>) =>
      apiPost('/users/me/notices', noticePreferencesSchema, { email }, { method: 'PUT' }),
    onSuccess: (saved: NoticePreferences) =>
      queryClient.setQueryData(NOTICE_PREFERENCES_KEY, saved),
  });
}

/** Turns one kind's e-mails off with the signed token of an e-mail's unsubscribe link. */
export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      apiPost('/notices/unsubscribe', unsubscribeResponseSchema, { token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTICE_PREFERENCES_KEY }),
  });
}

/**
 * While `enabled` (someone signed in whose count has loaded), holds the shared socket and
 * listens for `notices_changed`: the bell takes the pushed count, and the list, if shown, loads
 * again. After a dropped connection the count is asked for again, as pushes meanwhile were lost.
 * The socket's code is loaded only then, so guests and the first screen never fetch it.
 */
export function useLiveNotices(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let stop: (() => void) | undefined;
    void import('./chat-socket.ts').then(({ getChatSocket, holdChatSocket }) => {
      if (stopped) return;
      const release = holdChatSocket();
      const socket = getChatSocket();
      let missed = false;
      // Checked on arrival like any payload: a malformed push is ignored rather than shown.
      const onChanged = (payload: unknown) => {
        const parsed = noticesChangedSchema.safeParse(payload);
        if (!parsed.success) return;
        queryClient.setQueryData(UNREAD_NOTICES_KEY, parsed.data.unread);
        void queryClient.invalidateQueries({ queryKey: NOTICE_LIST_KEY });
      };
      const onDisconnect = () => {
        missed = true;
      };
      const onConnect = () => {
        if (!missed) return;
        missed = false;
        void queryClient.invalidateQueries({ queryKey: UNREAD_NOTICES_KEY });
        void queryClient.invalidateQueries({ queryKey: NOTICE_LIST_KEY });
      };
      socket.on('notices_changed', onChanged);
      socket.on('disconnect', onDisconnect);
      socket.on('connect', onConnect);
      stop = () => {
        socket.off('notices_changed', onChanged);
        socket.off('disconnect', onDisconnect);
        socket.off('connect', onConnect);
        release();
      };
    });
    return () => {
      stopped = true;
      stop?.();
    };
  }, [enabled, queryClient]);
}
