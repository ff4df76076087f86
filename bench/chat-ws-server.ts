/**
 * The chat benchmark's baseline (`bench/chat.ts` starts it as its own process): a bare `ws`
 * server with rooms and nothing else. A client names its room in the URL (`/?room=…`); each
 * message it sends goes, unchanged, to the other members of that room, and the sender gets a
 * one-byte acknowledgement, as the chat acknowledges `send_message`. No sign-in, no database, no
 * validation, no rate limit: the upper bound for one Node process on this machine.
 */
import { WebSocket, WebSocketServer } from 'ws';

const ACK = Buffer.from('A');
const rooms = new Map<string, Set<WebSocket>>();

const server = new WebSocketServer({
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  perMessageDeflate: false,
  maxPayload: 64 * 1024,
});

server.on('connection', (socket, request) => {
  const room = new URL(request.url ?? '/', 'http://localhost').searchParams.get('room') ?? '';
  let members = rooms.get(room);
  if (!members) rooms.set(room, (members = new Set()));
  members.add(socket);
  socket.on('message', (data, isBinary) => {
    for (const other of members) {
      if (other !== socket && other.readyState === WebSocket.OPEN) {
        other.send(data, { binary: isBinary });
      }
    }
    socket.send(ACK, { binary: false });
  });
  socket.on('close', () => {
    members.delete(socket);
    if (members.size === 0) rooms.delete(room);
  });
});

server.on('listening', () => {
  const address = server.address();
  console.log(`listening on ${typeof address === 'object' && address ? address.port : address}`);
});

process.once('SIGTERM', () => {
  for (const client of server.clients) client.terminate();
  server.close(() => process.exit(0));
});
