import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { SOCKET_DEFAULTS } from '../../contract/limits.ts';
import type { Config } from '../config.ts';
import { allowedOrigins } from '../http/origins.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Socket.IO server sharing the app's HTTP port. */
    io: Server;
  }
}

/**
 * Mounts Socket.IO on the same HTTP server as the API and the web app. A browser always sends
 * `Origin` on a WebSocket upgrade and on cross-site requests, so a foreign origin is refused here;
 * a request without one (same-origin polling, server-side clients) is let through to the
 * authentication that the chat work adds.
 */
export function mountRealtime(app: FastifyInstance, config: Config): Server {
  const origins = allowedOrigins(config);
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    connectTimeout: SOCKET_DEFAULTS.timeout,
    allowRequest: (request, callback) => {
      const origin = request.headers.origin;
      callback(null, origin === undefined || origins.has(origin));
    },
  });
  app.decorate('io', io);
  // Sockets are closed before Fastify closes the HTTP server: an open WebSocket would keep it alive.
  app.addHook('preClose', async () => {
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  return io;
}
