import type { Server, Socket } from 'socket.io';
import * as ws from 'ws';

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
 * How long an unhurried write ({@link sendUnhurried}) may wait in a member's corked stream for a
 * hurried write to the same member to carry it.
 */
export const UNHURRIED_WAIT_MS = 50;

/** True while {@link sendUnhurried} runs its send (Socket.IO writes synchronously). */
let unhurried = false;

/**
 * Runs `send` as an unhurried one: a broadcast (`io.local.to(…).emit(…)`, written to this
 * process's members at once) of a summary a room gets once a second (who is typing, the second's
 * reactions), or an event or acknowledgement to one socket that may wait as long (the answer to
 * a reaction, whose person sees it at once in their own tab anyway). Its frame waits up to
 * UNHURRIED_WAIT_MS in each member's corked stream and leaves with the next hurried write to that
 * member (a message of the room, an acknowledgement): in a busy room it costs no system call of
 * its own, where each member's own `writev` of it cost about as much as the rest of the summary's
 * work together (a profile of 500 members reacting each second: decision 013). Anything written to
 * the member meanwhile stays behind it, in order.
 */
export function sendUnhurried(send: () => void): void {
  unhurried = true;
  try {
    send();
  } finally {
    unhurried = false;
  }
}

/**
 * The WebSocket frame of an event or acknowledgement to one socket, built as the adapter builds a
 * broadcast's (an Engine.IO message packet, "4", before Socket.IO's text); none for a packet with
 * binary attachments, which takes Engine.IO's path.
 */
function singleFrame(encodedPackets: unknown): Buffer[] | undefined {
  if (!Array.isArray(encodedPackets) || encodedPackets.length !== 1) return undefined;
  const [text] = encodedPackets as unknown[];
  if (typeof text !== 'string') return undefined;
  return (ws as unknown as { Sender: SenderStatics }).Sender.frame(Buffer.from(`4${text}`), {
    readOnly: false,
    mask: false,
    rsv1: false,
    opcode: 1,
    fin: true,
  });
}

/** ws's `Sender.frame` (what the adapter uses), which ws's type definitions leave out. */
interface SenderStatics {
  frame(
    data: Buffer,
    options: { readOnly: boolean; mask: boolean; rsv1: boolean; opcode: number; fin: boolean },
  ): Buffer[];
}

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
 * An unhurried write ({@link sendUnhurried}) stays corked up to UNHURRIED_WAIT_MS instead, for a
 * hurried write to the member to take along; an unhurried event to one socket takes this path
 * too. A member who has stopped reading is dropped once UNREAD_BYTES_MAX is waiting for it.
 * `unhurriedWaitMs` replaces UNHURRIED_WAIT_MS for tests that must see a frame held however slow
 * the machine is.
 */
export function writeBroadcastsDirectly(
  io: Server,
  { unhurriedWaitMs = UNHURRIED_WAIT_MS }: { unhurriedWaitMs?: number } = {},
) {
  const corked = new Set<RawWebSocketStream>();
  let uncorkThisTurn = false;
  let uncorkTimer: NodeJS.Timeout | undefined;
  /** One buffer per frame, shared by every member (the adapter's frame is header + payload). */
  const joinedFrames = new WeakMap<Buffer[], Buffer>();

  const uncorkAll = () => {
    uncorkThisTurn = false;
    clearTimeout(uncorkTimer);
    uncorkTimer = undefined;
    for (const stream of corked) stream.uncork();
    corked.clear();
  };
  /** Everything corked goes at the end of this turn (held unhurried frames with it). */
  const flushThisTurn = () => {
    if (uncorkThisTurn) return;
    uncorkThisTurn = true;
    setImmediate(uncorkAll);
  };
  /** Everything corked goes within UNHURRIED_WAIT_MS, unless a hurried write takes it sooner. */
  const flushSoon = () => {
    if (uncorkThisTurn || uncorkTimer) return;
    uncorkTimer = setTimeout(uncorkAll, unhurriedWaitMs);
    uncorkTimer.unref();
  };

  /** The TCP stream under a WebSocket connection, if that is what `conn` has. */
  const tcpStream = (conn: EngineConnection) =>
    conn.transport.name === 'websocket' ? conn.transport.socket?._sender?._socket : undefined;

  /**
   * Something goes to `conn` through Engine.IO: if its stream holds unhurried frames, they leave
   * with it at the end of this turn, ahead of it, rather than hold it back.
   */
  const releaseHeld = (conn: EngineConnection) => {
    const stream = tcpStream(conn);
    if (stream && corked.has(stream)) flushThisTurn();
  };

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
      // Only broadcasts carry a frame; events to one socket go to Engine.IO (after what is held),
      // unless they are unhurried.
      const frame =
        options.wsPreEncodedFrame ?? (unhurried ? singleFrame(encodedPackets) : undefined);
      if (!frame) {
        releaseHeld(client.conn);
        return engineWrite(encodedPackets, options);
      }
      if (droppedForNotReading(client.conn)) return;
      const stream = options.volatile ? undefined : directStream(client.conn);
      if (!stream) {
        releaseHeld(client.conn);
        return engineWrite(encodedPackets, options);
      }
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
      if (unhurried) flushSoon();
      else flushThisTurn();
    };
  };

  io.on('connection', install);
}
