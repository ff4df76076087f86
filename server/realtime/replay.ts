import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { withMentions } from '../chat/mentions.ts';
import { messagesAfter, type MessageRow } from '../chat/store.ts';
import type { Database } from '../db/schema.ts';
import { presentMessage } from '../presenters/chat.ts';
import { watchCluster, type BroadcastPacket } from './adapter.ts';
import { channel, type ChatServer, type ChatSocket } from './chat/context.ts';

/** The start of every chat room's Socket.IO room (`chat:<id>`). */
const CHANNEL_PREFIX = channel('');
/**
 * Ids a room's ledger keeps one by one; older ones count as delivered. Two processes' messages
 * can arrive out of id order only by what their writers commit at the same moment (a batch is at
 * most 100), so an older id that was not delivered by now never will be.
 */
const LEDGER_IDS = 500;
/** Rows one replay statement reads. */
const REPLAY_PAGE = 500;
/** A replay that failed (the database went away again) is tried again this much later. */
const RETRY_MS = 2_000;

/** What this process delivered in one room that has members here. */
interface RoomLedger {
  /** Ids delivered to the members here, oldest first (a Set keeps the order of insertion). */
  delivered: Set<string>;
  /** Every id up to this one counts as delivered: those that left `delivered`. */
  floor: bigint;
  /** While a replay of the room is under way: the broadcasts that arrived, to follow it in order. */
  held?: { id: string; deliver: () => void }[];
  /** A replay skipped the room because its only members were joining: replay once they hold. */
  stale?: boolean;
}

/** A socket whose `room_history` went out: its room, and the newest id that history gave it. */
interface Holding {
  roomId: string;
  upTo: bigint;
}

/**
 * No message hidden by a database hiccup (issue 19). NOTIFY keeps nothing for a listener that is
 * away, so while this process's LISTEN connection is down (a database restart, then the
 * adapter's 1–3 s before it listens again), or while another process took it for gone and sent
 * nothing, messages stored through the other processes never reach the members here.
 *
 * So every process keeps, per room it has members in, a ledger of the message ids it delivered
 * there. When the adapter says notifications may have been missed (its LISTEN connection is back,
 * or a process unknown or taken for gone speaks: `watchCluster`), it reads from the database what
 * each such room stored after what its members hold, and sends each member, in id order, the
 * messages it has not had; broadcasts that arrive meanwhile wait and follow, so order holds.
 * Every broadcast of `receive_message` passes the ledger first, so a message already delivered
 * (by the replay, or twice by the adapter) is not delivered again.
 *
 * What a member holds: the `room_history` its join was sent (the newest id in it, or the `after`
 * it asked with when nothing was missed), then whatever reached the room live, in the ledger. The
 * history is watched as it goes out (`chat/rooms.ts` sends it), so the join needs no change.
 * One process (the in-memory adapter, PGlite) has nothing to miss: this then does nothing.
 */
export function replayMissedMessages(
  io: ChatServer,
  { db, log }: { db: Kysely<Database>; log: FastifyBaseLogger },
) {
  const namespace = io.of('/');
  const adapter = namespace.adapter;
  const ledgers = new Map<string, RoomLedger>();
  const holdings = new WeakMap<ChatSocket, Holding>();
  /** What a replay found for a member whose `room_history` had not gone out yet. */
  const pending = new WeakMap<ChatSocket, { roomId: string; messages: ChatMessage[] }>();
  let running: Promise<void> | undefined;
  let again = false;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const roomIdOf = (room: string) =>
    room.startsWith(CHANNEL_PREFIX) ? room.slice(CHANNEL_PREFIX.length) : undefined;
  const seen = (ledger: RoomLedger, id: string) =>
    BigInt(id) <= ledger.floor || ledger.delivered.has(id);
  const record = (ledger: RoomLedger, id: string) => {
    ledger.delivered.add(id);
    if (ledger.delivered.size <= LEDGER_IDS) return;
    const [oldest] = ledger.delivered;
    ledger.delivered.delete(oldest!);
    const value = BigInt(oldest!);
    if (value > ledger.floor) ledger.floor = value;
  };
  const markOf = (socket: ChatSocket, roomId: string) => {
    const holding = holdings.get(socket);
    return holding?.roomId === roomId ? holding.upTo : undefined;
  };
  const membersOf = (roomId: string) => {
    const members: ChatSocket[] = [];
    for (const id of adapter.rooms.get(channel(roomId)) ?? []) {
      const socket = namespace.sockets.get(id);
      if (socket?.data.room?.id === roomId) members.push(socket);
    }
    return members;
  };

  adapter.on('join-room', (room: string) => {
    const roomId = roomIdOf(room);
    if (roomId !== undefined && !ledgers.has(roomId)) {
      ledgers.set(roomId, { delivered: new Set(), floor: -1n });
    }
  });
  adapter.on('delete-room', (room: string) => {
    const roomId = roomIdOf(room);
    if (roomId !== undefined) ledgers.delete(roomId);
  });

  /** Sends `row` to every member here that lacks it; false when the ledger had it already. */
  const deliverMissed = (roomId: string, ledger: RoomLedger, row: MessageRow) => {
    if (seen(ledger, row.id)) return false;
    record(ledger, row.id);
    const id = BigInt(row.id);
    for (const socket of membersOf(roomId)) {
      const message = presentMessage(row, socket.data.room!.name);
      const mark = markOf(socket, roomId);
      if (mark === undefined) {
        const found = pending.get(socket);
        if (found?.roomId === roomId) found.messages.push(message);
        else pending.set(socket, { roomId, messages: [message] });
      } else if (id > mark) {
        socket.emit('receive_message', message);
      }
    }
    return true;
  };

  /** Replays one room; the number of messages it delivered. */
  const replayRoom = async (roomId: string, ledger: RoomLedger) => {
    const marks = membersOf(roomId)
      .map((socket) => markOf(socket, roomId))
      .filter((mark) => mark !== undefined);
    if (marks.length === 0) {
      // Only joiners, whose history is still on its way: replay when it has gone out.
      ledger.stale = true;
      return 0;
    }
    // From the oldest any member here may lack, but not below what the ledger settled.
    let after = marks.reduce((low, mark) => (mark < low ? mark : low));
    if (after < ledger.floor) after = ledger.floor;
    if (after < 0n) after = 0n;
    let delivered = 0;
    ledger.held = [];
    try {
      for (;;) {
        const rows = await messagesAfter(db, roomId, after.toString(), REPLAY_PAGE);
        // Who each mentions, as the live broadcast said (decision 042); none without an `@`.
        await withMentions(db, rows);
        for (const row of rows) if (deliverMissed(roomId, ledger, row)) delivered += 1;
        if (rows.length < REPLAY_PAGE) break;
        after = BigInt(rows.at(-1)!.id);
      }
    } finally {
      const held = ledger.held;
      ledger.held = undefined;
      for (const { id, deliver } of held) {
        if (seen(ledger, id)) continue;
        record(ledger, id);
        deliver();
      }
    }
    return delivered;
  };

  /** Replays every room with members here; one run at a time, and one more if asked meanwhile. */
  const replay = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        const rooms = [...ledgers];
        const results = await Promise.allSettled(
          rooms.map(([roomId, ledger]) => replayRoom(roomId, ledger)),
        );
        let delivered = 0;
        for (const result of results) {
          if (result.status === 'fulfilled') {
            delivered += result.value;
            continue;
          }
          log.warn(
            { err: result.reason },
            'could not read the chat messages missed while not listening; trying again',
          );
          retry ??= setTimeout(() => {
            retry = undefined;
            replay();
          }, RETRY_MS).unref();
        }
        if (delivered > 0) {
          log.info({ rooms: rooms.length, delivered }, 'delivered chat messages missed meanwhile');
        }
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
  };

  const intercept = (packet: BroadcastPacket, rooms: ReadonlySet<string>, deliver: () => void) => {
    const [event, message] = packet.data ?? [];
    if (event !== 'receive_message' || rooms.size !== 1) return false;
    const [room] = rooms;
    const roomId = roomIdOf(room!);
    const ledger = roomId === undefined ? undefined : ledgers.get(roomId);
    const id = (message as Partial<ChatMessage> | undefined)?.id;
    // No member here (no ledger), or not a message this knows: as usual.
    if (!ledger || typeof id !== 'string' || !/^\d{1,20}$/.test(id)) return false;
    if (ledger.held) {
      ledger.held.push({ id, deliver });
    } else if (!seen(ledger, id)) {
      record(ledger, id);
      deliver();
    }
    return true;
  };

  /** A socket's `room_history` went out: from now on it holds up to its newest id. */
  const historySent = (
    socket: ChatSocket,
    emit: (event: string, ...args: unknown[]) => boolean,
    messages: readonly ChatMessage[],
    asked: bigint | undefined,
  ) => {
    const roomId = socket.data.room?.id;
    if (roomId === undefined) return;
    const last = messages.at(-1)?.id;
    // A catch-up that found nothing says nothing: the client holds up to what it asked after.
    const upTo = last !== undefined ? BigInt(last) : (asked ?? -1n);
    holdings.set(socket, { roomId, upTo });
    const found = pending.get(socket);
    pending.delete(socket);
    if (found?.roomId === roomId) {
      for (const message of found.messages) {
        if (BigInt(message.id) > upTo) emit('receive_message', message);
      }
    }
    const ledger = ledgers.get(roomId);
    if (ledger?.stale) {
      ledger.stale = false;
      replay();
    }
  };

  if (!watchCluster(adapter, { intercept, mayHaveMissed: replay })) {
    return { close: async () => {} };
  }

  io.on('connection', (socket: ChatSocket) => {
    let asked: bigint | undefined;
    socket.on('join_room', (payload: unknown) => {
      const after = (payload as { after?: unknown } | null)?.after;
      asked = typeof after === 'string' && /^\d{1,20}$/.test(after) ? BigInt(after) : undefined;
    });
    const emit = socket.emit.bind(socket) as (event: string, ...args: unknown[]) => boolean;
    Object.assign(socket, {
      emit(event: string, ...args: unknown[]) {
        const sent = emit(event, ...args);
        if (event === 'room_history') {
          historySent(socket, emit, (args[0] ?? []) as ChatMessage[], asked);
        }
        return sent;
      },
    });
  });

  return {
    /** Stops retrying and waits for a replay under way. */
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await running;
    },
  };
}
