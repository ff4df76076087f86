import type { Server, Socket } from 'socket.io';

/**
 * The parts of a WebSocket connection this module touches, below Socket.IO's public API. Every
 * one is checked before use; when any is missing (another transport, a library upgrade that
 * moved them) a broadcast takes Socket.IO's own path, which is slower but equivalent.
 */
interface RawWebSocketStream {
  cork(): void;
  uncork(): void;
  write(chunk: Buffer): boolean;
  /** Bytes written but not yet taken by the kernel: what a member has not read. */
  writableLength: number;
  /** False once the stream ended, errored or was destroyed. */
  writable: boolean;
}
interface EngineConnection {
  readyState: string;
  writeBuffer: unknown[];
  transport: {
    name: string;
    writable: boolean;
    perMessageDeflate?: unknown;
    socket?: {
      readyState: number;
      /** ws's own: closes the TCP connection at once, without the closing handshake. */
      terminate?: () => void;
      _sender?: { _socket?: RawWebSocketStream };
    };
  };
  close(discard?: boolean): void;
}
interface BroadcastOptions {
  volatile?: boolean;
  /** The whole WebSocket frame (header and payload), built once per broadcast by the adapter. */
  wsPreEncodedFrame?: Buffer[];
}
interface ClientInternals {
  conn: EngineConnection;
  writeToEngine(encodedPackets: unknown, options: BroadcastOptions): void;
}

/** ws's `WebSocket.OPEN`. */
const WEBSOCKET_OPEN = 1;

/**
 * A member whose connection holds more than this unread is dropped: about 13,000 ordinary
 * messages, minutes behind even in the busiest room. Without a limit a client that stops
 * reading (a frozen tab, a hostile script) makes the server keep every frame for it. The
 * browser reconnects and catches up from the database (`join_room` with `after`).
 */
export const UNREAD_BYTES_MAX = 4 * 1024 * 1024;
/** The same limit for packets waiting in Engine.IO (a polling member, or behind a stuck write). */
export const UNSENT_PACKETS_MAX = 10_000;

/**
 * Writes room broadcasts straight to each member's WebSocket, and every frame a member gets in
 * one event-loop turn in one system call.
 *
 * Socket.IO already encodes a broadcast once for all members, down to the WebSocket frame. Then,
 * per member, Engine.IO makes a packet object, emits `packetCreate`, `flush` and `drain`, and
 * writes the frame with a callback; the write is one `writev` system call, which on loopback or a
 * LAN is most of the cost. At half of its saturated load the chat spent about twice the CPU per
 * delivery that it spent at saturation (where the kernel's full buffers make Node coalesce), so
 * bursts queued and p99 went past 50 ms (bench/README.md, "Chat"; decision 013).
 *
 * Here, when a member's connection is an open WebSocket with nothing queued in Engine.IO, the
 * frame goes to its TCP stream directly, which is corked until the end of the event-loop turn
 * (`setImmediate`): the broadcasts of one turn (a group commit releases several messages at once)
 * leave in one write per member. Order is kept: anything else written to that member in the same
 * turn (an acknowledgement, a ping, another event) goes into the same corked stream behind it,
 * and when Engine.IO has packets waiting (a write of its own in flight) the broadcast queues
 * behind them through Engine.IO as before. Polling connections always take Engine.IO's path.
 * A member who has stopped reading is dropped once UNREAD_BYTES_MAX is waiting for it.
 */
export function writeBroadcastsDirectly(io: Server) {
  const corked = new Set<RawWebSocketStream>();
  let uncorkScheduled = false;
  /** One buffer per frame, shared by every member (the adapter's frame is header + payload). */
  const joinedFrames = new WeakMap<Buffer[], Buffer>();

  const uncorkAll = () => {
    uncorkScheduled = false;
    for (const stream of corked) stream.uncork();
    corked.clear();
  };

  /** The TCP stream under a WebSocket connection, if that is what `conn` has. */
  const tcpStream = (conn: EngineConnection) =>
    conn.transport.name === 'websocket' ? conn.transport.socket?._sender?._socket : undefined;

  const directStream = (conn: EngineConnection): RawWebSocketStream | undefined => {
    const transport = conn.transport;
    if (
      conn.readyState !== 'open' ||
      conn.writeBuffer.length > 0 ||
      !transport.writable ||
      transport.perMessageDeflate ||
      transport.socket?.readyState !== WEBSOCKET_OPEN
    )
      return undefined;
    const stream = tcpStream(conn);
    if (!stream?.writable || typeof stream.cork !== 'function') return undefined;
    return stream;
  };

  /** Drops `conn` when its member has stopped reading; true when it did. */
  const droppedForNotReading = (conn: EngineConnection) => {
    const unread = tcpStream(conn)?.writableLength ?? 0;
    if (unread <= UNREAD_BYTES_MAX && conn.writeBuffer.length <= UNSENT_PACKETS_MAX) return false;
    // A closing handshake would wait behind everything unread; end the connection at once.
    conn.transport.socket?.terminate?.();
    conn.close(true);
    return true;
  };

  const install = (socket: Socket) => {
    const client = socket.client as unknown as ClientInternals;
    if (Object.hasOwn(client, 'writeToEngine')) return;
    const engineWrite = client.writeToEngine.bind(client);
    client.writeToEngine = (encodedPackets, options) => {
      const frame = options.wsPreEncodedFrame;
      // Only broadcasts carry a frame; events to one socket go to Engine.IO untouched.
      if (!frame) return engineWrite(encodedPackets, options);
      if (droppedForNotReading(client.conn)) return;
      const stream = options.volatile ? undefined : directStream(client.conn);
      if (!stream) return engineWrite(encodedPackets, options);
      let joined = joinedFrames.get(frame);
      if (!joined) {
        joined = frame.length === 1 ? frame[0]! : Buffer.concat(frame);
        joinedFrames.set(frame, joined);
      }
      if (!corked.has(stream)) {
        stream.cork();
        corked.add(stream);
      }
      stream.write(joined);
      if (!uncorkScheduled) {
        uncorkScheduled = true;
        setImmediate(uncorkAll);
      }
    };
  };

  io.on('connection', install);
}
