import type { FastifyBaseLogger } from 'fastify';
import type { Ack } from '#contract/socket/chat.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../db/unavailable.ts';
import { Refusal } from '../../refusal.ts';
import type { ChatSocket, On } from './context.ts';

/** What the person is told when an event fails; only unexpected failures are logged as errors. */
function failureMessage(log: FastifyBaseLogger, error: unknown, event: string) {
  if (error instanceof Refusal) return error.message;
  if (isDatabaseUnavailable(error)) {
    log.warn({ err: error, event }, 'chat event failed: the database is unavailable');
    return DATABASE_UNAVAILABLE_MESSAGE;
  }
  log.error({ err: error, event }, 'chat event failed');
  return 'Something went wrong on our side. Please try again.';
}

/**
 * The `on` of one socket: each handler's answer, or the message of the {@link Refusal} it threw,
 * goes back in the acknowledgement, or as `chat_error` when the client asked for none.
 */
export function createOn(socket: ChatSocket, log: FastifyBaseLogger): On {
  return (event, handler) => {
    socket.on(event, async (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.pop() as (a: Ack) => void) : null;
      let answer: Ack;
      try {
        answer = (await handler(args[0])) ?? { ok: true };
      } catch (error) {
        answer = { ok: false, message: failureMessage(log, error, event) };
      }
      if (ack) ack(answer);
      else if (!answer.ok) socket.emit('chat_error', { message: answer.message });
    });
  };
}
