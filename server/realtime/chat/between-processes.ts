import type { Server } from 'socket.io';

/**
 * What one server-side message between processes may weigh, as JSON. A NOTIFY carries at most
 * 8,000 bytes; the PostgreSQL adapter stores anything bigger in a table first
 * (`socket_io_attachments`): an INSERT by the sender and a SELECT by every receiver, each on the
 * adapter's one pool connection, where the chat's own broadcasts to the other processes wait
 * behind them. A thousand bytes are left for the adapter's envelope.
 */
export const NOTIFY_BUDGET_BYTES = 7_000;

/** One room's news in a server-side message: the room's id, its name and the event's entries. */
export type RoomNews<Entry> = [roomId: string, roomName: string, entries: Entry[]];

/** One room's entries before they are sent. */
export interface RoomEntries<Entry> {
  name: string;
  entries: Entry[];
}

/** Adds `entry` to the room's entries in `outbox`, opening them with `roomName` if new. */
export function addRoomEntry<Entry>(
  outbox: Map<string, RoomEntries<Entry>>,
  roomId: string,
  roomName: string,
  entry: Entry,
): void {
  const room = outbox.get(roomId);
  if (room) room.entries.push(entry);
  else outbox.set(roomId, { name: roomName, entries: [entry] });
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Packs each room's entries into as few messages as keep each within `budget` bytes of JSON: a
 * room whose entries do not all fit goes on in the next message (its id and name again). An entry
 * too big for a message of its own still goes, alone (the adapter then stores it first).
 */
export function packRoomNews<Entry>(
  rooms: ReadonlyMap<string, RoomEntries<Entry>>,
  budget = NOTIFY_BUDGET_BYTES,
): RoomNews<Entry>[][] {
  const messages: RoomNews<Entry>[][] = [];
  let message: RoomNews<Entry>[] = [];
  let size = 2; // the message's brackets
  for (const [roomId, room] of rooms) {
    // The room's head, `["id","name",[]]` and a comma, each time it opens a message.
    const head = bytes([roomId, room.name, []]) + 1;
    let news: RoomNews<Entry> | undefined;
    for (const entry of room.entries) {
      const cost = bytes(entry) + 1;
      if (!news && size + head + cost > budget && message.length > 0) {
        messages.push(message);
        message = [];
        size = 2;
      }
      if (news && size + cost > budget) {
        messages.push(message);
        message = [];
        size = 2;
        news = undefined;
      }
      if (!news) {
        news = [roomId, room.name, []];
        message.push(news);
        size += head;
      }
      news[2].push(entry);
      size += cost;
    }
  }
  if (message.length > 0) messages.push(message);
  return messages;
}

/**
 * Sends `rooms`' entries to the other processes as `event`, packed by {@link packRoomNews}: each
 * message a NOTIFY of its own, none through the adapter's table.
 */
export function sendRoomNews<Entry>(
  cluster: Server,
  event: string,
  rooms: ReadonlyMap<string, RoomEntries<Entry>>,
) {
  for (const message of packRoomNews(rooms)) cluster.serverSideEmit(event, message);
}

/**
 * The well-formed rooms of a message another process sent (`sendRoomNews`), each with the
 * entries `isEntry` accepts. They come from our own processes through the database; a message of
 * another version or shape is skipped, never thrown on.
 */
export function readRoomNews<Entry>(
  message: unknown,
  isEntry: (entry: unknown) => entry is Entry,
): RoomNews<Entry>[] {
  if (!Array.isArray(message)) return [];
  const rooms: RoomNews<Entry>[] = [];
  for (const news of message as unknown[]) {
    if (!Array.isArray(news) || news.length !== 3) continue;
    const [roomId, roomName, entries] = news as unknown[];
    if (typeof roomId !== 'string' || typeof roomName !== 'string' || !Array.isArray(entries)) {
      continue;
    }
    rooms.push([roomId, roomName, entries.filter(isEntry)]);
  }
  return rooms;
}
