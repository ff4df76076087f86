import { MessageType } from 'socket.io-adapter';

/**
 * What a process without Socket.IO (`npm run import`) sends to the servers on the same PostgreSQL
 * (decision 045, "Imports from the command line"): the NOTIFY that `@socket.io/postgres-emitter`
 * sends for `serverSideEmit`, written here because that package (0.1.1) leaves out the message's
 * namespace, by which `@socket.io/postgres-adapter` 0.5 routes what it hears and
 * `socket.io-adapter`'s `onMessage` accepts it: its messages are dropped unread.
 */

/**
 * The `uid` of what a Socket.IO emitter sends (a process without Socket.IO): it has no adapter, so
 * the adapter (`adapter.ts`) counts it as no process, and still passes its server-side messages
 * to the library's `onMessage`, which calls the handlers (`io.on`).
 */
export const EMITTER_UID = 'emitter';

/**
 * The prefix of the adapter's NOTIFY channels, one per namespace (`socket.io#/`): the library's
 * default, given to it by `adapter.ts`, so that an emitter notifies the channel servers LISTEN on.
 * Declared here, not in `adapter.ts`, so that `npm run import` does not load the adapter library.
 */
export const CLUSTER_CHANNEL_PREFIX = 'socket.io';

/** The namespace every server's handlers listen on; its channel is `socket.io#/`. */
const NAMESPACE = '/';

/**
 * PostgreSQL's limit for a NOTIFY's payload (bytes, less one). The adapter would fetch a bigger
 * message from its attachments table (msgpack); this sender never writes there, it refuses.
 */
const NOTIFY_PAYLOAD_MAX_BYTES = 7_999;

/** Runs one statement with `$1` parameters (`DatabaseHandle.executeSql`). */
export type ExecuteSql = (text: string, values: readonly unknown[]) => Promise<unknown>;

/**
 * The JSON of the message that makes every server process call its `io.on(event)` handlers with
 * `args`, as the cluster adapter's own `serverSideEmit` does (without an acknowledgement).
 */
export function serverSideEmitPayload(event: string, args: readonly unknown[]): string {
  return JSON.stringify({
    uid: EMITTER_UID,
    nsp: NAMESPACE,
    type: MessageType.SERVER_SIDE_EMIT,
    data: { packet: [event, ...args] },
  });
}

/**
 * Sends `event` with `args` to the server-side handlers of every server process listening on this
 * PostgreSQL, in one NOTIFY; nothing happens where none listens. Resolves once the database has
 * taken it, rejects when it could not (the caller decides what that costs) or when the message
 * is too big for one NOTIFY.
 */
export async function serverSideEmitFromOutside(
  execute: ExecuteSql,
  event: string,
  ...args: unknown[]
): Promise<void> {
  const payload = serverSideEmitPayload(event, args);
  const size = Buffer.byteLength(payload);
  if (size > NOTIFY_PAYLOAD_MAX_BYTES) {
    throw new Error(`a server-side message of ${size} bytes does not fit in one NOTIFY`);
  }
  await execute('SELECT pg_notify($1, $2)', [`${CLUSTER_CHANNEL_PREFIX}#${NAMESPACE}`, payload]);
}
