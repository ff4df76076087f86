import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { SOCKET_DEFAULTS } from '../../contract/limits.ts';
import type { Auth } from '../auth/auth.ts';
import type { Config } from '../config.ts';
import { createPool, type DatabaseHandle } from '../db/client.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { allowedOrigins } from '../http/origins.ts';
import type { Role } from '../../contract/http/users.ts';
import { SOCKET_MAX_PAYLOAD_BYTES } from '../../contract/socket/chat.ts';
import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { mountChat, type ChatServer } from './chat.ts';

/** Who a socket belongs to, decided by the server from the session cookie at connection. */
export interface SocketUser {
  id: string;
  role: Role;
  firstName: string;
  /** The name the chat shows: the forum username, else the first name. */
  chatName: string;
  sessionId: string;
}

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
  }: {
    config: Config;
    auth: Auth;
    database: DatabaseHandle;
    moderationWords: readonly string[];
    now: () => Date;
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
  io.use(async (socket, next) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(socket.handshake.headers)) {
        if (typeof value === 'string') headers.set(name, value);
        else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
      }
      const session = await auth.api.getSession({ headers });
      if (!session) return next(new Error('Please sign in to use the chat.'));
      const user = await database.db
        .selectFrom('users')
        .select(['id', 'role', 'first_name', 'chat_username', 'profile_completed'])
        .where('id', '=', session.user.id)
        .executeTakeFirst();
      if (!user?.profile_completed)
        return next(new Error('Please complete your academic profile first.'));
      const data: SocketUser = {
        id: user.id,
        role: user.role,
        firstName: user.first_name,
        chatName: user.chat_username ?? user.first_name,
        sessionId: session.session.id,
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
  // Several processes on one PostgreSQL: the adapter carries broadcasts between them. It holds
  // one connection for LISTEN all the time, so it gets a small pool of its own: the app's pool
  // must be able to end while the adapter is still up (and the other way round).
  const adapterPool = database.connectionString
    ? closablePool(createPool({ connectionString: database.connectionString, max: 2 }))
    : undefined;
  if (adapterPool) {
    io.adapter(
      createAdapter(adapterPool.pool, {
        errorHandler: (error) => app.log.warn({ err: error }, 'socket.io postgres adapter'),
      }),
    );
  }
  const chat = mountChat(io, { db: database.db, log: app.log, moderationWords, now });
  app.decorate('io', io);
  // Sockets are closed before Fastify closes the HTTP server: an open WebSocket would keep it alive.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
    await chat.close();
    await io.of('/').adapter.close();
    await adapterPool?.end();
  });
  return io;
}

/**
 * The adapter's pool, which can end even while the adapter is still connecting.
 *
 * The adapter takes its LISTEN connection asynchronously and keeps it, but only knows it has it
 * once its LISTEN statements are done; its `close()` releases it only then. A shutdown soon after
 * start-up (a test, a SIGTERM during boot) could close the adapter in between: the connection was
 * never released, and `pool.end()` waited for it until Fastify's 30 s timeout. So `end()` closes
 * whatever the adapter still holds, and later attempts (the adapter retries when a connection
 * drops) wait forever instead of failing into a retry loop that would keep the process alive.
 * A connection that ends under the adapter (the database went away) goes back to the pool.
 */
function closablePool(pool: pg.Pool) {
  let ending = false;
  const held = new Set<pg.PoolClient>();
  const never = () => new Promise<never>(() => {});
  pool.on('release', (_error: unknown, client: pg.PoolClient) => held.delete(client));
  const facade = {
    async connect() {
      if (ending) return never();
      const client = await pool.connect();
      if (ending) {
        client.release();
        return never();
      }
      held.add(client);
      // When the database goes away the adapter forgets this connection and takes a new one, but
      // never releases it: hand it back broken, or the pool stays one short for good.
      client.once('end', () => {
        if (held.has(client)) client.release(new Error('the LISTEN connection ended'));
      });
      return client;
    },
    query: pool.query.bind(pool),
  };
  return {
    /** What the adapter is given: it uses only `connect` and `query`. */
    pool: facade as unknown as pg.Pool,
    async end() {
      ending = true;
      for (const client of held) client.release(true);
      held.clear();
      await pool.end();
    },
  };
}
