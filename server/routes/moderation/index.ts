import {
  endSanctionParamsSchema,
  endSanctionRequestSchema,
  endSanctionResponseSchema,
  moderationActionRequestSchema,
  moderationActionResponseSchema,
  moderationQueueResponseSchema,
} from '#contract/http/moderation.ts';
import { ROUTES, roomPath } from '#contract/routes.ts';
import type { ModerationNotice } from '#contract/socket/chat.ts';
import {
  applyModerationAction,
  moderationHistory,
  moderationQueue,
  untilText,
  type ActionRow,
} from '../../chat/moderation.ts';
import { withMentions } from '../../chat/mentions.ts';
import { endSanctionEarly, sanctionsInForce } from '../../chat/sanctions.ts';
import { parseInput } from '../../http/errors.ts';
import { createNotice } from '../../notices/store.ts';
import { presentMessage } from '../../presenters/chat.ts';
import { presentModerationAction, presentQueueEntry } from '../../presenters/moderation.ts';
import { presentLiftNotice, presentSanction } from '../../presenters/sanctions.ts';
import { channel } from '../../realtime/chat/context.ts';
import { userRoom } from '../../realtime/index.ts';
import { announceUnread } from '../../realtime/notices.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/** What the person muted or removed reads, in the bell and in the room's banner. */
function sanctionNotice(action: ActionRow): ModerationNotice {
  const endsAt = action.ends_at!;
  const where =
    action.action === 'remove'
      ? `removed you from the room “${action.room_name}”`
      : action.scope === 'everywhere'
        ? 'muted you in every chat room'
        : `muted you in the room “${action.room_name}”`;
  return {
    action: action.action === 'remove' ? 'remove' : 'mute',
    roomName: action.scope === 'everywhere' ? null : action.room_name,
    reason: action.reason,
    endsAt: endsAt.toISOString(),
    message: `A moderator ${where} ${untilText(endsAt)}. Reason: ${action.reason}`,
  };
}

/**
 * The librarians' moderation queue (issue 26, decision 040): reported messages with their
 * context and the history of actions, and the actions themselves. The screen polls the queue;
 * each action tells the people concerned at once through Socket.IO (its adapter reaches every
 * process): the room sees a hidden or restored message, the person muted or removed a banner,
 * and their bell a notice.
 */
export async function moderationRoutes(
  app: DeclaringInstance,
  context: RouteContext,
): Promise<void> {
  const db = context.database.db;

  app.get(
    '/moderation/queue',
    declareRoute({
      tag: 'moderation',
      summary: 'Reported chat messages, hidden ones, and the latest moderators’ actions',
      description:
        'Open reports grouped by message, most reporters first, each with five messages before and after.',
      access: ['librarian'],
      response: moderationQueueResponseSchema,
    }),
    async () => {
      const { reports, hidden } = await moderationQueue(db);
      return {
        reports: reports.map(presentQueueEntry),
        hidden: hidden.map(presentQueueEntry),
        history: (await moderationHistory(db)).map(presentModerationAction),
        sanctions: (await sanctionsInForce(db)).map(presentSanction),
      };
    },
  );

  app.post(
    '/moderation/actions',
    declareRoute({
      tag: 'moderation',
      summary: 'Dismiss, hide, restore, mute or remove, on a reported message',
      description:
        'Recorded with who and why. A mute (this room or everywhere) or a removal lasts 10 minutes, 1 hour or 1 day.',
      access: ['librarian'],
      body: moderationActionRequestSchema,
      response: moderationActionResponseSchema,
      errors: {
        404: 'The message is gone (its room was closed).',
        409: 'The message is already hidden (or not hidden, to restore), or has no sender to mute.',
      },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const body = parseInput(moderationActionRequestSchema, request.body);
      const { action, message } = await applyModerationAction(db, caller, body);
      const io = request.server.io;
      if (action.action === 'hide' || action.action === 'restore') {
        // A restored message highlights its mentions again, also for whoever joined meanwhile.
        if (action.action === 'restore') await withMentions(db, [message]);
        io.to(channel(message.room_id)).emit(
          'message_updated',
          presentMessage(message, message.room_name),
        );
      }
      if ((action.action === 'mute' || action.action === 'remove') && message.sender_id) {
        const notice = sanctionNotice(action);
        const target = message.sender_id;
        io.to(userRoom(target)).emit('moderation_notice', notice);
        if (action.action === 'remove') {
          io.in(userRoom(target)).socketsLeave(channel(message.room_id));
        }
        await createNotice(db, {
          userId: target,
          kind: 'moderation',
          key: `moderation:${action.id}`,
          title:
            action.action === 'remove'
              ? 'You were removed from a chat room'
              : 'You were muted in the chat',
          body: notice.message,
          link: roomPath(message.room_name),
          now: context.now(),
        });
        await announceUnread(io, db, [target]).catch((error: unknown) =>
          request.log.warn({ err: error }, 'could not announce a moderation notice'),
        );
      }
      return { action: presentModerationAction(action) };
    },
  );
  app.post(
    '/moderation/sanctions/:id/end',
    declareRoute({
      tag: 'moderation',
      summary: 'End a mute or a removal early',
      description:
        'Recorded with who and why as a lift; the person is told at once and may post (or join) again on every process.',
      access: ['librarian'],
      params: endSanctionParamsSchema,
      body: endSanctionRequestSchema,
      response: endSanctionResponseSchema,
      errors: { 409: 'The mute or removal has already ended (or never existed).' },
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const { id } = parseInput(endSanctionParamsSchema, request.params);
      const body = parseInput(endSanctionRequestSchema, request.body);
      const { action, sanction } = await endSanctionEarly(db, caller, {
        sanctionId: id,
        reason: body.reason,
      });
      const notice = presentLiftNotice(sanction, action.reason);
      request.server.io.to(userRoom(sanction.user_id)).emit('moderation_notice', notice);
      await createNotice(db, {
        userId: sanction.user_id,
        kind: 'moderation',
        key: `moderation:${action.id}`,
        title:
          sanction.kind === 'remove'
            ? 'Your removal from a chat room was ended'
            : 'Your mute in the chat was ended',
        body: notice.message,
        link: sanction.room_name ? roomPath(sanction.room_name) : ROUTES.discussionForum,
        now: context.now(),
      });
      await announceUnread(request.server.io, db, [sanction.user_id]).catch((error: unknown) =>
        request.log.warn({ err: error }, 'could not announce a moderation notice'),
      );
      return { action: presentModerationAction(action) };
    },
  );
}
