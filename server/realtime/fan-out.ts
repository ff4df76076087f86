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
      _sender?: { _socket?: RawWebSocketStream };
    };
  };
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

  const directStream = (conn: EngineConnection): RawWebSocketStream | undefined => {
    const transport = conn.transport;
    if (
      conn.readyState !== 'open' ||
      conn.writeBuffer.length > 0 ||
      transport.name !== 'websocket' ||
      !transport.writable ||
      transport.perMessageDeflate ||
      transport.socket?.readyState !== WEBSOCKET_OPEN
    )
      return undefined;
    const stream = transport.socket._sender?._socket;
    if (!stream?.writable || typeof stream.cork !== 'function') return undefined;
    return stream;
  };

  const install = (socket: Socket) => {
    const client = socket.client as unknown as ClientInternals;
    if (Object.hasOwn(client, 'writeToEngine')) return;
    const engineWrite = client.writeToEngine.bind(client);
    client.writeToEngine = (encodedPackets, options) => {
      const frame = options.wsPreEncodedFrame;
      const stream = frame && !options.volatile ? directStream(client.conn) : undefined;
      if (!frame || !stream) return engineWrite(encodedPackets, options);
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
