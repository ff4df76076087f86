import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sendUnhurried, UNREAD_BYTES_MAX, writeBroadcastsDirectly } from './fan-out.ts';

/** The server side of one member: its Socket.IO socket and the TCP stream under its WebSocket. */
interface Member {
  socket: Socket;
  client: ClientSocket;
  received: string[];
}

/** A wait for unhurried frames that no slow turn outlasts: only a hurried write releases them. */
const HELD_MS = 10_000;

describe('writing broadcasts directly', () => {
  let http: HttpServer | undefined;
  let io: Server | undefined;
  const clients: ClientSocket[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await io?.close();
    io = undefined;
    http = undefined;
  });

  /**
   * `unhurriedWaitMs`: a test that checks a frame is held until a hurried write takes it gives it
   * longer than UNHURRIED_WAIT_MS, so that a slow turn on a busy machine cannot let it go first.
   */
  async function start(unhurriedWaitMs?: number) {
    http = createServer();
    io = new Server(http);
    writeBroadcastsDirectly(io, { unhurriedWaitMs });
    await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  }

  /** Connects a client over `transports`, puts it in room `r` and records every event name. */
  async function join(url: string, transports: ('websocket' | 'polling')[]): Promise<Member> {
    const connected = new Promise<Socket>((resolve) => io!.once('connection', resolve));
    const client = connect(url, { transports, forceNew: true, reconnection: false });
    clients.push(client);
    const received: string[] = [];
    client.onAny((event: string, value?: unknown) =>
      received.push(value === undefined ? event : `${event}:${String(value)}`),
    );
    const socket = await connected;
    await socket.join('r');
    await vi.waitFor(() => expect(client.connected).toBe(true));
    return { socket, client, received };
  }

  /** Counts the packets Engine.IO makes for `socket` (its own path emits `packetCreate`). */
  function countEnginePackets(socket: Socket) {
    const counter = { packets: 0 };
    socket.conn.on('packetCreate', (packet: { type: string }) => {
      if (packet.type === 'message') counter.packets += 1;
    });
    return counter;
  }

  it('hands a WebSocket member the broadcast without making an Engine.IO packet', async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const engine = countEnginePackets(member.socket);
    io!.to('r').emit('note', 'hello');
    await vi.waitFor(() => expect(member.received).toEqual(['note:hello']));
    expect(engine.packets).toBe(0);
    // An event to the one socket still goes through Engine.IO.
    member.socket.emit('direct', 'x');
    await vi.waitFor(() => expect(member.received).toEqual(['note:hello', 'direct:x']));
    expect(engine.packets).toBe(1);
  });

  /** Spies on the writes of `member`'s TCP stream: a corked stream's chunks leave in one `_writev`. */
  function spyOnWrites(member: Member) {
    const stream = (
      member.socket.conn.transport as unknown as {
        socket: {
          _sender: {
            _socket: {
              _writev: (...args: unknown[]) => void;
              _write: (...args: unknown[]) => void;
            };
          };
        };
      }
    ).socket._sender._socket;
    const writev = vi.spyOn(stream, '_writev');
    const write = vi.spyOn(stream, '_write');
    return {
      count: () => writev.mock.calls.length + write.mock.calls.length,
      /** What each `_writev` carried, as text. */
      vectors: () =>
        writev.mock.calls.map((call) =>
          (call[0] as ({ chunk: Buffer } | Buffer)[])
            // Node hands over bare buffers when every chunk is one.
            .map((chunk) => (Buffer.isBuffer(chunk) ? chunk : chunk.chunk).toString())
            .join(''),
        ),
    };
  }

  it("sends one turn's broadcasts to a member in one write, in order with its other events", async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const writes = spyOnWrites(member);
    io!.to('r').emit('note', 1);
    io!.to('r').emit('note', 2);
    member.socket.emit('direct', 3);
    io!.to('r').emit('note', 4);
    await vi.waitFor(() => expect(member.received).toHaveLength(4));
    expect(member.received).toEqual(['note:1', 'note:2', 'direct:3', 'note:4']);
    // Broadcast 4 waited behind Engine.IO's write of event 3, so one write carried 1 to 3.
    expect(writes.vectors()[0]).toMatch(/\["note",1\].*\["note",2\].*\["direct",3\]$/s);
    expect(writes.vectors()).toHaveLength(2);
  });

  it('holds an unhurried broadcast for the next broadcast to the member, and sends both in one write', async () => {
    const url = await start(HELD_MS);
    const member = await join(url, ['websocket']);
    const writes = spyOnWrites(member);
    sendUnhurried(() => io!.to('r').emit('summary', 1));
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(writes.count()).toBe(0);
    io!.to('r').emit('note', 2);
    await vi.waitFor(() => expect(member.received).toEqual(['summary:1', 'note:2']));
    expect(writes.count()).toBe(1);
    expect(writes.vectors()[0]).toMatch(/\["summary",1\].*\["note",2\]$/s);
  });

  it('lets an event to the member take what is held along, ahead of it', async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const writes = spyOnWrites(member);
    sendUnhurried(() => io!.to('r').emit('summary', 1));
    member.socket.emit('direct', 2);
    await vi.waitFor(() => expect(member.received).toEqual(['summary:1', 'direct:2']));
    expect(writes.count()).toBe(1);
  });

  it('holds an unhurried event or acknowledgement to one socket like an unhurried broadcast', async () => {
    const url = await start(HELD_MS);
    const member = await join(url, ['websocket']);
    const engine = countEnginePackets(member.socket);
    const writes = spyOnWrites(member);
    let heard!: () => void;
    const asked = new Promise<void>((resolve) => (heard = resolve));
    member.socket.on('react', (value: number, ack: (answer: string) => void) => {
      sendUnhurried(() => ack(`answer ${value}`));
      sendUnhurried(() => member.socket.emit('direct', 1));
      heard();
    });
    const answered = member.client.emitWithAck('react', 7);
    await asked;
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(member.received).toEqual([]);
    io!.to('r').emit('note', 2);
    await vi.waitFor(() => expect(member.received).toEqual(['direct:1', 'note:2']));
    await expect(answered).resolves.toBe('answer 7');
    // Neither went through Engine.IO, and what was held left with the broadcast.
    expect(engine.packets).toBe(0);
    expect(writes.vectors().some((text) => /\["direct",1\].*\["note",2\]$/s.test(text))).toBe(true);
  });

  it('sends an unhurried event to a member on long-polling through Engine.IO', async () => {
    const url = await start();
    const member = await join(url, ['polling']);
    sendUnhurried(() => member.socket.emit('direct', 1));
    await vi.waitFor(() => expect(member.received).toEqual(['direct:1']));
  });

  it('sends an unhurried broadcast on its own when nothing else comes', async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const other = await join(url, ['polling']);
    const writes = spyOnWrites(member);
    sendUnhurried(() => io!.to('r').emit('summary', 1));
    for (let turn = 0; turn < 3; turn += 1) await nextTurn();
    expect(writes.count()).toBe(0);
    // Within UNHURRIED_WAIT_MS, and to a member on long-polling as ever.
    await vi.waitFor(() => expect(member.received).toEqual(['summary:1']));
    await vi.waitFor(() => expect(other.received).toEqual(['summary:1']));
    // The next broadcast is hurried again.
    io!.to('r').emit('note', 2);
    await vi.waitFor(() => expect(member.received).toEqual(['summary:1', 'note:2']));
  });

  it('reaches members on long-polling, and mixed rooms, through Engine.IO', async () => {
    const url = await start();
    const polling = await join(url, ['polling']);
    const websocket = await join(url, ['websocket']);
    const engine = countEnginePackets(polling.socket);
    for (let n = 1; n <= 3; n += 1) io!.to('r').emit('note', n);
    await vi.waitFor(() => expect(polling.received).toHaveLength(3));
    await vi.waitFor(() => expect(websocket.received).toHaveLength(3));
    expect(polling.received).toEqual(['note:1', 'note:2', 'note:3']);
    expect(websocket.received).toEqual(['note:1', 'note:2', 'note:3']);
    expect(engine.packets).toBe(3);
  });

  it('delivers a broadcast sent just before the member is disconnected', async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const gone = new Promise<string>((resolve) => member.client.once('disconnect', resolve));
    io!.to('r').emit('note', 'last');
    member.socket.disconnect(true);
    expect(await gone).toBe('io server disconnect');
    expect(member.received).toEqual(['note:last']);
  });

  it('drops a member who stopped reading, and only that one', async () => {
    const url = await start();
    const stalled = await join(url, ['websocket']);
    const reader = await join(url, ['websocket']);
    let readerCount = 0;
    reader.client.on('big', () => (readerCount += 1));
    // The client stops taking data off its TCP connection, as a frozen tab would.
    (
      stalled.client.io.engine.transport as unknown as { ws: { _socket: { pause(): void } } }
    ).ws._socket.pause();
    const gone = new Promise<string>((resolve) => stalled.socket.once('disconnect', resolve));
    let dropped = false;
    void gone.then(() => (dropped = true));
    const chunk = 'x'.repeat(64 * 1024);
    let sent = 0;
    while (!dropped && sent * chunk.length < 4 * UNREAD_BYTES_MAX) {
      io!.to('r').emit('big', chunk);
      sent += 1;
      await nextTurn();
    }
    expect(await gone).toBe('forced close');
    // What was sent before the drop still reaches the member who reads.
    await vi.waitFor(() => expect(readerCount).toBe(sent));
    expect(reader.client.connected).toBe(true);
  });

  it('leaves volatile broadcasts to Engine.IO', async () => {
    const url = await start();
    const member = await join(url, ['websocket']);
    const engine = countEnginePackets(member.socket);
    io!.volatile.to('r').emit('note', 'maybe');
    await vi.waitFor(() => expect(member.received).toEqual(['note:maybe']));
    expect(engine.packets).toBe(1);
  });
});
