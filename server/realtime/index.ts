import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { SOCKET_DEFAULTS } from '#contract/limits.ts';
import type { Auth } from '../auth/auth.ts';
import { readSession } from '../auth/session.ts';
import type { SocketBudgets } from '../chat/event-budget.ts';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { allowedOrigins } from '../http/origins.ts';
import { SOCKET_MAX_PAYLOAD_BYTES } from '#contract/socket/chat.ts';
import { createAdapterPool, createClusterAdapter } from './adapter.ts';
import type { ChatServer } from './chat/context.ts';
import { mountChat } from './chat/index.ts';
import { writeBroadcastsDirectly } from './fan-out.ts';
import { replayMissedMessages } from './replay.ts';
import type { SocketUser } from './socket-user.ts';

/** Room holding every socket of one signed-in browser session (sign-out disconnects it). */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** Room holding every socket of one user (a password reset disconnects it). */
export const userRoom = (userId: string) => `user:${userId}`;

declare module 'fastify' {
  interface FastifyInstance {
    /** The Socket.IO server sharing the app's HTTP port. */
    io: ChatServer;
  }
}

/**
 * Mounts Socket.IO on the same HTTP server as the API and the web app. A browser always sends
 * `Origin` on a WebSocket upgrade and on cross-site requests, so a foreign origin is refused;
 * then only a signed-in member with a completed profile may connect, by the session cookie.
 */
export function mountRealtime(
  app: FastifyInstance,
  {
    config,
    auth,
    database,
    moderationWords,
    now,
    socketBudgets,
  }: {
    config: Config;
    auth: Auth;
    database: DatabaseHandle;
    moderationWords: readonly string[];
    now: () => Date;
    socketBudgets?: SocketBudgets;
  },
): ChatServer {
  const origins = allowedOrigins(config);
  const io: ChatServer = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    connectTimeout: SOCKET_DEFAULTS.timeout,
    // A bigger frame closes the connection: no message or payload needs more.
    maxHttpBufferSize: SOCKET_MAX_PAYLOAD_BYTES,
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, origin === undefined || origins.has(origin));
    },
  });
  writeBroadcastsDirectly(io);
  io.use(async (socket, next) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(socket.handshake.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      // The session and the whole user row in one statement, as for an HTTP request.
      const { signedIn } = await readSession(
        { auth, database },
        socket.handshake.headers.cookie,
        () => headers,
      );
      if (!signedIn) return next(new Error('Please sign in to use the chat.'));
      const { user } = signedIn;
      if (!user.profile_completed)
        return next(new Error('Please complete your academic profile first.'));
      const data: SocketUser = {
        id: user.id,
        role: user.role,
        firstName: user.first_name,
        chatName: user.chat_username ?? user.first_name,
        sessionId: signedIn.sessionId,
        email: user.email,
        emailVerified: user.email_verified,
      };
      socket.data.user = data;
      await socket.join([sessionRoom(data.sessionId), userRoom(data.id)]);
      next();
    } catch (error) {
      app.log.warn({ err: error }, 'socket authentication failed');
      next(
        new Error(
          isDatabaseUnavailable(error)
            ? DATABASE_UNAVAILABLE_MESSAGE
            : 'We could not check your sign-in. Please try again.',
        ),
      );
    }
  });
  // Several processes on one PostgreSQL: the adapter carries broadcasts between them.
  const adapterPool = database.connectionString
    ? createAdapterPool(database.connectionString)
    : undefined;
  if (adapterPool) {
    io.adapter(
      createClusterAdapter(adapterPool.pool, {
        onError: (error) => app.log.warn({ err: error }, 'socket.io postgres adapter'),
      }),
    );
  }
  // What the other processes stored while this one could not hear them (issue 19).
  const replay = replayMissedMessages(io, { db: database.db, log: app.log });
  const chat = mountChat(io, {
    db: database.db,
    log: app.log,
    moderationWords,
    now,
    budgets: socketBudgets,
  });
  app.decorate('io', io);
  // Sockets are closed before Fastify closes the HTTP server: an open WebSocket would keep it alive.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
    await chat.close();
    await replay.close();
    await io.of('/').adapter.close();
    await adapterPool?.end();
  });
  return io;
}
