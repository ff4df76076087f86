import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  ITEM_CARDS_MAX,
  itemCardsResponseSchema,
  itemRoomResponseSchema,
  type ItemAvailability,
  type ItemCard,
} from '#contract/http/item-cards.ts';
import { apiPost, apiRequest } from './client.ts';
import { getChatSocket } from './chat-socket.ts';

/*
 * The library in the conversation (decision 045): the cards of catalogue items linked in chat
 * messages. Every card on the screen asks for its item through one batched call (ids asked
 * within a few milliseconds go together, at most ITEM_CARDS_MAX per call), kept by TanStack
 * Query per item; the socket's `item_availability` replaces an item's availability in place.
 */

/** The query key of one item's card. */
export const itemCardKey = (itemId: string) => ['item-card', itemId.toLowerCase()] as const;

/** Ids asked for within this long go in one call. */
const BATCH_WAIT_MS = 10;

let waiting = new Map<
  string,
  { resolve: (card: ItemCard | null) => void; reject: (e: unknown) => void }[]
>();
let batchTimer: ReturnType<typeof setTimeout> | undefined;

async function sendBatch(batch: typeof waiting): Promise<void> {
  const ids = [...batch.keys()];
  for (let start = 0; start < ids.length; start += ITEM_CARDS_MAX) {
    const part = ids.slice(start, start + ITEM_CARDS_MAX);
    try {
      const { items } = await apiRequest(
        `/items/cards?ids=${part.map(encodeURIComponent).join(',')}`,
        itemCardsResponseSchema,
      );
      const found = new Map(items.map((item) => [item.id.toLowerCase(), item]));
      for (const id of part)
        for (const ask of batch.get(id) ?? []) ask.resolve(found.get(id) ?? null);
    } catch (error) {
      for (const id of part) for (const ask of batch.get(id) ?? []) ask.reject(error);
    }
  }
}

/** One item's card, fetched together with every other card asked for at the same moment. */
export function loadItemCard(itemId: string): Promise<ItemCard | null> {
  const id = itemId.toLowerCase();
  return new Promise((resolve, reject) => {
    const asks = waiting.get(id) ?? [];
    asks.push({ resolve, reject });
    waiting.set(id, asks);
    batchTimer ??= setTimeout(() => {
      batchTimer = undefined;
      const batch = waiting;
      waiting = new Map();
      void sendBatch(batch);
    }, BATCH_WAIT_MS);
  });
}

/** The card of `itemId` (null when the item is not in the catalogue). */
export function useItemCard(itemId: string) {
  return useQuery({
    queryKey: itemCardKey(itemId),
    queryFn: () => loadItemCard(itemId),
    // Live by the socket while shown; asked again only after a reconnect or a long while.
    staleTime: 5 * 60_000,
  });
}

/*
 * Watching: every card shown counts once for its item; the socket is told in one `watch_items`
 * per moment (and again after a reconnect), and `unwatch_items` once nothing shows the item.
 */
const watchers = new Map<string, number>();
let toWatch = new Set<string>();
let toUnwatch = new Set<string>();
let watchTimer: ReturnType<typeof setTimeout> | undefined;
let client: QueryClient | null = null;
/** The socket whose events are heard (the one shared socket; a test may make another). */
let listenedTo: ReturnType<typeof getChatSocket> | null = null;

function applyAvailability(payload: ItemAvailability) {
  client?.setQueryData<ItemCard | null>(itemCardKey(payload.itemId), (card) =>
    card ? { ...card, availability: payload } : card,
  );
}

function sendWatches() {
  watchTimer = undefined;
  const socket = getChatSocket();
  if (!socket.connected) return;
  const watch = [...toWatch];
  const unwatch = [...toUnwatch];
  toWatch = new Set();
  toUnwatch = new Set();
  for (let start = 0; start < watch.length; start += ITEM_CARDS_MAX) {
    socket.emit('watch_items', { itemIds: watch.slice(start, start + ITEM_CARDS_MAX) });
  }
  for (let start = 0; start < unwatch.length; start += ITEM_CARDS_MAX) {
    socket.emit('unwatch_items', { itemIds: unwatch.slice(start, start + ITEM_CARDS_MAX) });
  }
}

function scheduleWatches() {
  watchTimer ??= setTimeout(sendWatches, BATCH_WAIT_MS);
}

function listen() {
  const socket = getChatSocket();
  if (listenedTo === socket) return;
  listenedTo = socket;
  socket.on('item_availability', applyAvailability);
  socket.on('connect', () => {
    // A new connection watches nothing yet, and what changed while away is asked again.
    toWatch = new Set(watchers.keys());
    toUnwatch = new Set();
    if (toWatch.size > 0) {
      scheduleWatches();
      void client?.invalidateQueries({ queryKey: ['item-card'] });
    }
  });
}

/** Keeps `itemId`'s card live while the calling component is mounted. */
export function useWatchItem(itemId: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    client = queryClient;
    listen();
    const id = itemId.toLowerCase();
    const count = watchers.get(id) ?? 0;
    watchers.set(id, count + 1);
    if (count === 0) {
      if (toUnwatch.has(id)) toUnwatch.delete(id);
      else toWatch.add(id);
      scheduleWatches();
    }
    return () => {
      const left = (watchers.get(id) ?? 1) - 1;
      if (left > 0) {
        watchers.set(id, left);
        return;
      }
      watchers.delete(id);
      if (toWatch.has(id)) toWatch.delete(id);
      else toUnwatch.add(id);
      scheduleWatches();
    };
  }, [itemId, queryClient]);
}

/** Opens the room tied to an item ("Discuss this book"), creating it on the first call. */
export function useOpenItemRoom() {
  return useMutation({
    mutationFn: (itemId: string) =>
      apiPost(`/items/${encodeURIComponent(itemId)}/room`, itemRoomResponseSchema, {}),
  });
}
