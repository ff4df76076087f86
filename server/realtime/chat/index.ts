import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createModerator } from '#contract/moderation.ts';
import { createEventBudget, type SocketBudgets } from '../../chat/event-budget.ts';
import { createPostingBans } from '../../chat/posting-bans.ts';
import { createRoomWords } from '../../chat/room-words.ts';
import { createSendRate } from '../../chat/send-rate.ts';
import {
  beat,
  createMessageWriter,
  forgetServers,
  listRooms,
  SERVER_STALE_MS,
} from '../../chat/store.ts';
import type { Database } from '../../db/schema.ts';
import { RateLimitError } from '../../http/rate-limit.ts';
import { presentRoom } from '../../presenters/chat.ts';
import { heardFromOtherProcesses } from '../adapter.ts';
import type { ChatContext, ChatServer, ChatSocket } from './context.ts';
import { attentionEvents } from './attention.ts';
import { messageEvents } from './messages.ts';
import { moderationEvents } from './moderation.ts';
import { itemEvents, watchAvailability } from './items.ts';
import { createOn } from './on-event.ts';
import { createPresence } from './presence.ts';
import { createRoomActivity } from './room-activity.ts';
import { createReactionFanOut } from './reactions.ts';
import { roomEvents } from './rooms.ts';
import { threadEvents } from './threads.ts';
import { createTyping } from './typing.ts';

/** How often this process proves it is alive, for the member counts. */
const HEARTBEAT_MS = 10_000;

/** `available_rooms` goes out at most this often; a burst of joins becomes one push. */
const ROOMS_PUSH_DELAY_MS = 150;

/**
 * The discussion forum over Socket.IO: rooms and messages in the database (an acknowledged
 * message survives a restart), the server deciding who sends and who owns a room, abuse checked
 * with the shared matcher before anything is stored, and a per-person message rate. Each event
 * group registers its own handlers (`rooms.ts`, `messages.ts`, `moderation.ts`); this wires them
 * to every connection and keeps the process's heartbeat and the room-list push.
 */
export function mountChat(
  io: ChatServer,
  options: {
    db: Kysely<Database>;
    log: FastifyBaseLogger;
    moderationWords: readonly string[];
    now?: () => Date;
    /** The event budgets; the contract's unless a test of other rules lifts them. */
    budgets?: SocketBudgets;
  },
) {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const serverId = randomUUID();
  const moderator = createModerator(options.moderationWords);
  const writer = createMessageWriter(db);
  const sharing = () => heardFromOtherProcesses(io.of('/').adapter);

  let pushTimer: NodeJS.Timeout | undefined;
  /** Sends every client the room list soon, once for a burst of changes. */
  const pushRooms = () => {
    if (pushTimer) return;
    pushTimer = setTimeout(() => {
      pushTimer = undefined;
      listRooms(db, now())
        .then((rows) => io.emit('available_rooms', rows.map(presentRoom)))
        .catch((error: unknown) => log.warn({ err: error }, 'could not push the room list'));
    }, ROOMS_PUSH_DELAY_MS);
  };

  const heartbeat = async () => {
    const at = now();
    await beat(db, serverId, at);
    await forgetServers(db, { staleBefore: new Date(at.getTime() - 10 * SERVER_STALE_MS) });
  };
  // Room lists wait for the first beat, so this process's members count from the start.
  const ready = heartbeat().catch((error: unknown) =>
    log.warn({ err: error }, 'chat heartbeat failed'),
  );

  const context: ChatContext = {
    io,
    db,
    log,
    now,
    serverId,
    moderator,
    writer,
    // While other processes share this database, a person may be connected to several of them:
    // the rate and the budgets of rooms and reports are then counted in the database too
    // (decision 014, issue 19).
    sendRate: createSendRate({ db, sharing }),
    roomWords: createRoomWords(db),
    eventBudget: createEventBudget({ db, sharing, budgets: options.budgets }),
    pushRooms,
    ready,
    presence: createPresence({ io, db, log, now, ready }),
    roomActivity: createRoomActivity({ io, log }),
  };
  // Typing and presence (decision 044): coalesced per room, across processes.
  const typing = createTyping({ io, log, bans: createPostingBans(db) });
  // Reactions, coalesced the same way (decision 043).
  const reactionFanOut = createReactionFanOut({ io, db, log });

  const timer = setInterval(() => {
    heartbeat().catch((error: unknown) => log.warn({ err: error }, 'chat heartbeat failed'));
    context.sendRate.forgetQuietSenders();
    context.eventBudget.forgetQuiet();
    context.roomWords.forgetStale();
  }, HEARTBEAT_MS);
  timer.unref();
  // Live availability of the items whose cards sockets show (decision 045).
  const stopAvailability = watchAvailability(context, sharing);

  // After the sign-in check (mountRealtime's): a person whose socket was just closed for flooding
  // is refused before anything else is done for the connection (issue 19).
  io.use((socket, next) => {
    const waitMs = context.eventBudget.shutOutFor(socket.data.user.id);
    next(waitMs > 0 ? new RateLimitError(Math.ceil(waitMs / 1000)) : undefined);
  });

  io.on('connection', (socket: ChatSocket) => {
    const budget = context.eventBudget.forSocket(socket.data.user);
    const connection = { socket, user: socket.data.user, on: createOn(socket, log, budget) };
    roomEvents(context, connection);
    messageEvents(context, connection);
    moderationEvents(context, connection);
    attentionEvents(context, connection);
    threadEvents(context, connection, reactionFanOut);
    itemEvents(context, connection);
    typing.events(connection);
  });

  return {
    serverId,
    /** Stops the heartbeat and forgets this process's presence (a clean shutdown). */
    async close() {
      clearInterval(timer);
      stopAvailability();
      if (pushTimer) clearTimeout(pushTimer);
      typing.close();
      reactionFanOut.close();
      context.presence.close();
      context.roomActivity.close();
      await forgetServers(db, { serverId }).catch(() => {});
    },
  };
}
