import WebSocket from 'ws';
import { OPEN_ROOMS_PER_PERSON_MAX, type Ack } from '#contract/socket/chat.ts';

/** Sockets a bench closed on purpose (any other close is the server's doing). */
const closing = new WeakSet<WebSocket>();

/**
 * A raw WebSocket without compression; `onUnexpectedClose` runs when it closes without
 * `closeWebSocket` (the server dropped it). A refused connection fails its caller's wait for
 * `open`; 'close' follows.
 */
export function openWebSocket(
  url: string,
  headers: Record<string, string>,
  onUnexpectedClose?: () => void,
): WebSocket {
  const socket = new WebSocket(url, { perMessageDeflate: false, headers });
  socket.on('error', () => {});
  socket.on('close', () => {
    if (!closing.has(socket)) onUnexpectedClose?.();
  });
  return socket;
}

/** Closes a socket opened by `openWebSocket`, on purpose. */
export function closeWebSocket(socket: WebSocket): void {
  closing.add(socket);
  socket.close();
}

/** A Socket.IO connection made by hand (see `connectSocketIo`). */
export interface WireSocket {
  /** Sends an event with an acknowledgement and resolves with the server's answer. */
  emit(event: string, payload: unknown): Promise<Ack>;
  close(): void;
  /** The underlying WebSocket ('close' tells when it is gone). */
  socket: WebSocket;
}

/**
 * A signed-in Socket.IO client speaking the wire protocol directly over `ws` (Engine.IO 4 /
 * Socket.IO 5: open, namespace connect, `42[…]` events, `43<id>[…]` acks, ping/pong), so
 * thousands of clients cost the bench little. Events from the server are handed to `onEvent` as
 * raw frames (`42["name",…]`), never parsed here; resolves once the namespace is connected and
 * rejects with the server's refusal.
 */
export async function connectSocketIo(
  url: string,
  cookie: string,
  options: {
    onEvent?: (frame: Buffer, now: number) => void;
    onUnexpectedClose?: () => void;
  } = {},
): Promise<WireSocket> {
  const socket = openWebSocket(
    `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`,
    { origin: url, cookie },
    options.onUnexpectedClose,
  );
  const acks = new Map<number, (answer: Ack) => void>();
  let nextAck = 0;
  const { onEvent } = options;
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed before connecting')));
    socket.on('message', (raw) => {
      const now = performance.now();
      const data = raw as Buffer;
      const type = data[0];
      if (type === 0x34 /* Engine.IO message */) {
        const packet = data[1];
        if (packet === 0x32 /* event */) onEvent?.(data, now);
        else if (packet === 0x33 /* ack */) {
          const text = data.toString();
          const bracket = text.indexOf('[');
          const id = Number(text.slice(2, bracket));
          const answer = (JSON.parse(text.slice(bracket)) as Ack[])[0]!;
          acks.get(id)?.(answer);
          acks.delete(id);
        } else if (packet === 0x30 /* connected */) resolve();
        else if (packet === 0x34 /* connect error */) reject(new Error(data.toString()));
      } else if (type === 0x32 /* ping */) socket.send('3');
      else if (type === 0x30 /* open */) socket.send('40');
    });
  });
  return {
    emit: (event, payload) =>
      new Promise<Ack>((resolve) => {
        const id = nextAck++;
        acks.set(id, resolve);
        socket.send(`42${id}${JSON.stringify([event, payload])}`);
      }),
    close: () => closeWebSocket(socket),
    socket,
  };
}

/** What a bench writes at the start of a chat message: `BENCH|<sender>|<seq>|<µs>|`. */
const STAMP = Buffer.from('BENCH|');
const FILLER = 'notes on chapter three of the reading list for the seminar on Thursday, ';

/**
 * A message of `length` characters (at least its stamp) carrying its sender, its sequence number
 * and when it was sent (`performance.now()`), for `readStamp` at the receiving end: one clock.
 */
export function stampedText(sender: number, seq: number, at: number, length = 100): string {
  const head = `${STAMP.toString()}${sender}|${seq}|${Math.round(at * 1000)}|`;
  return head + FILLER.repeat(Math.ceil(length / FILLER.length)).slice(0, length - head.length);
}

/** The stamp of a delivered frame, found by its marker and never JSON-parsed; sent at in ms. */
export function readStamp(
  frame: Buffer,
): { sender: number; seq: number; sentAt: number } | undefined {
  const at = frame.indexOf(STAMP);
  if (at < 0) return undefined;
  const numbers = [0, 0, 0];
  let index = at + STAMP.length;
  for (let field = 0; field < 3; field += 1) {
    let value = 0;
    for (let byte = frame[index]; byte !== 0x7c; byte = frame[++index]) {
      if (byte === undefined || byte < 0x30 || byte > 0x39) return undefined;
      value = value * 10 + byte - 0x30;
    }
    numbers[field] = value;
    index += 1;
  }
  return { sender: numbers[0]!, seq: numbers[1]!, sentAt: numbers[2]! / 1000 };
}

/**
 * Creates the chat rooms `names` on the server at `url`. One person may keep at most
 * OPEN_ROOMS_PER_PERSON_MAX open rooms, so the rooms are dealt out among the people of `cookies`
 * in turn, as few each as possible: a bench that creates rooms for several scenarios on one server
 * stays far below the rule for everyone.
 */
export async function createRooms(
  url: string,
  cookies: readonly string[],
  names: readonly string[],
  description = 'bench',
): Promise<void> {
  const people = Math.min(cookies.length, names.length);
  if (names.length > people * OPEN_ROOMS_PER_PERSON_MAX)
    throw new Error(`too few people to create ${names.length} rooms`);
  for (let person = 0; person < people; person += 1) {
    const creator = await connectSocketIo(url, cookies[person]!);
    for (let room = person; room < names.length; room += people) {
      const roomName = names[room]!;
      const answer = await creator.emit('create_room', { roomName, description });
      if (!answer.ok) throw new Error(`create_room ${roomName}: ${answer.message}`);
    }
    creator.close();
  }
}
