import type { FastifyBaseLogger } from 'fastify';
import type { Ack } from '#contract/socket/chat.ts';
import type { SocketBudget } from '../../chat/event-budget.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../../db/unavailable.ts';
import { RateLimitError } from '../../http/rate-limit.ts';
import { Refusal } from '../../refusal.ts';
import { sendUnhurried } from '../fan-out.ts';
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

/** The answer to an event a budget or a rate refused: when to try again, in whole seconds. */
function tooOften(error: RateLimitError): Ack {
  return { ok: false, message: error.message, retryAfter: error.retryAfterSeconds };
}

/**
 * The `on` of one socket: each handler's answer, or the message of the {@link Refusal} it threw,
 * goes back in the acknowledgement (a successful one unhurried where `options` say so), or as
 * `chat_error` when the client asked for none. Before any
 * work, the event's group must have a token in the socket's and the person's budgets (issue 19):
 * a refusal touches no database while this process is alone, and a socket refused more often than
 * a person ever would be is closed.
 */
export function createOn(socket: ChatSocket, log: FastifyBaseLogger, budget: SocketBudget): On {
  return (event, handler, options = {}) => {
    socket.on(event, async (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.pop() as (a: Ack) => void) : null;
      let answer: Ack;
      let overBudget = false;
      try {
        const taken = budget.take(event);
        const waitMs = typeof taken === 'number' ? taken : await taken;
        if (waitMs > 0) {
          overBudget = true;
          answer = tooOften(new RateLimitError(Math.ceil(waitMs / 1000)));
        } else {
          answer = (await handler(args[0])) ?? { ok: true };
        }
      } catch (error) {
        answer =
          error instanceof RateLimitError
            ? tooOften(error)
            : {
                ok: false,
                message: failureMessage(log, error, event),
                ...(error instanceof Refusal && error.code ? { code: error.code } : {}),
              };
      }
      if (ack && answer.ok && options.unhurriedAnswer) sendUnhurried(() => ack(answer));
      else if (ack) ack(answer);
      else if (!answer.ok) socket.emit('chat_error', { message: answer.message });
      if (overBudget && budget.refused() && socket.connected) {
        // Once: a closed socket's later events are dropped before they reach this wrapper.
        log.warn(
          { userId: socket.data.user.id, event },
          'closed a socket that kept sending after its budget refused it',
        );
        socket.disconnect(true);
      }
    });
  };
}
