import { WATCHED_ITEMS_MAX } from '#contract/http/item-cards.ts';
import { onAvailabilityChange, readAvailability } from '../../reservations/availability.ts';
import { Refusal } from '../../refusal.ts';
import type { ChatConnection, ChatContext } from './context.ts';
import { parsePayload } from './payload.ts';

/** The Socket.IO room of the sockets showing a card of item `itemId` (decision 045). */
export const itemChannel = (itemId: string) => `item:${itemId}`;

/** Changes within this long are read and sent together: a check-out touches an item twice. */
const AVAILABILITY_BATCH_MS = 50;

/**
 * A socket's cards (decision 045): `watch_items` joins the rooms of the items whose cards it
 * shows, `unwatch_items` leaves them. At most `WATCHED_ITEMS_MAX` at once per socket.
 */
export function itemEvents(_context: ChatContext, { socket, on }: ChatConnection) {
  const watched = () => [...socket.rooms].filter((room) => room.startsWith('item:')).length;

  on('watch_items', async (payload) => {
    const { itemIds } = parsePayload('watch_items', payload);
    const rooms = itemIds.map((id) => itemChannel(id.toLowerCase()));
    const fresh = rooms.filter((room) => !socket.rooms.has(room));
    if (watched() + fresh.length > WATCHED_ITEMS_MAX) {
      throw new Refusal(
        429,
        `This page shows more than ${WATCHED_ITEMS_MAX} items; reload it to see their availability.`,
      );
    }
    await socket.join(fresh);
  });

  on('unwatch_items', async (payload) => {
    const { itemIds } = parsePayload('unwatch_items', payload);
    for (const id of itemIds) await socket.leave(itemChannel(id.toLowerCase()));
  });
}

/**
 * Sends `item_availability` to the sockets watching an item whenever the circulation seam says
 * it may have changed (`availabilityChanged`, called by `offerFreedCopies` in every change's
 * transaction). The availability is read once the change has committed, and sent through the
 * adapter, so watchers connected to other processes hear it too. Returns the stop.
 */
export function watchAvailability(context: ChatContext, sharing: () => boolean): () => void {
  const { io, db, log, now } = context;
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    timer = undefined;
    const local = io.of('/').adapter.rooms;
    // Nobody here watches, and no other process could: nothing to read.
    const ids = [...pending].filter((id) => sharing() || local.has(itemChannel(id)));
    pending = new Set();
    if (ids.length === 0) return;
    const counts = await readAvailability(db, ids, now(), { waitForChanges: true });
    for (const availability of counts.values()) {
      io.to(itemChannel(availability.itemId)).emit('item_availability', availability);
    }
  };

  const stop = onAvailabilityChange(db, (itemId) => {
    pending.add(itemId);
    timer ??= setTimeout(() => {
      flush().catch((error: unknown) =>
        log.warn({ err: error }, 'could not send an item availability'),
      );
    }, AVAILABILITY_BATCH_MS);
  });
  return () => {
    stop();
    if (timer) clearTimeout(timer);
  };
}
