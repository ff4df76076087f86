import { CHAT_TEXT, MODERATION_TEXT } from '#contract/socket/chat.ts';
import { deleteMessage, editMessage, whyChangeRefused, type Actor } from '../../chat/threads.ts';
import { presentMessage } from '../../presenters/chat.ts';
import { Refusal } from '../../refusal.ts';
import {
  channel,
  joinedRoom,
  requireVerifiedSender,
  type ChatConnection,
  type ChatContext,
} from './context.ts';
import { attachMentions, notifyMentioned } from './attention.ts';
import { restrict } from './moderation.ts';
import { parsePayload } from './payload.ts';
import type { ReactionFanOut } from './reactions.ts';

/**
 * Edits, deletions and reactions (issue 26, decision 043), in the room the socket joined. An edit
 * passes the same checks as a send: the library's matcher (a hit restricts the room and changes
 * nothing), the room's own words, mutes and members only (in the statement); slow mode does not
 * apply, as an edit adds no message. The room hears `message_updated` (on every process, through
 * the adapter) and reactions as `reactions_batch`, at most once a second (`reactions.ts`).
 */
export function threadEvents(
  context: ChatContext,
  { socket, user, on }: ChatConnection,
  reactionFanOut: ReactionFanOut,
) {
  const { db, io, moderator } = context;
  const actor = (): Actor => ({
    id: user.id,
    name: user.chatName,
    isStaff: user.role === 'librarian',
  });
  const inRoom = (roomName: string) =>
    joinedRoom(socket, roomName, 'Join the room before changing anything in it.');

  on('edit_message', async (payload) => {
    await requireVerifiedSender(db, user);
    const body = parsePayload('edit_message', payload);
    const joined = inRoom(body.roomName);
    if (moderator.isAbusive(body.text)) {
      // As a send: never stored, and the room is restricted for everyone instead.
      if (!(await restrict(context, joined.name))) throw new Refusal(403, CHAT_TEXT.restricted);
      throw new Refusal(422, `${CHAT_TEXT.abuseWarning} ${CHAT_TEXT.abuseWarningMore}`);
    }
    const roomWord = context.roomWords.matches(joined.id, body.text);
    if (roomWord === true || (roomWord !== false && (await roomWord))) {
      throw new Refusal(422, MODERATION_TEXT.roomWord);
    }
    const change = { roomId: joined.id, messageId: body.messageId, actor: actor() };
    const row = await editMessage(db, { ...change, text: body.text });
    if (!row) throw await whyChangeRefused(db, change, 'edit');
    // The new text's mentions, by the rules of a send (decision 042), never the client's word.
    const mentions = await attachMentions(context, joined, row);
    // Always says them, even none: the browser keeps a message's mentions when an update is
    // silent about them (a moderator's restore), and an edit may have taken them all out.
    io.to(channel(joined.id)).emit('message_updated', {
      mentions: [],
      ...presentMessage(row, joined.name),
    });
    await notifyMentioned(context, joined, row, mentions, { edited: true });
    return { ok: true, id: row.id };
  });

  on('delete_message', async (payload) => {
    const body = parsePayload('delete_message', payload);
    const joined = inRoom(body.roomName);
    const change = { roomId: joined.id, messageId: body.messageId, actor: actor() };
    const row = await deleteMessage(db, change);
    if (!row) throw await whyChangeRefused(db, change, 'delete');
    io.to(channel(joined.id)).emit('message_updated', presentMessage(row, joined.name));
    // A deleted message mentions nobody: the rooms' unread mention markers stop counting it.
    if (row.content.includes('@')) {
      await notifyMentioned(context, joined, row, [], { edited: true });
    }
    return { ok: true, id: row.id };
  });

  on(
    'react_message',
    async (payload) => {
      const body = parsePayload('react_message', payload);
      const joined = inRoom(body.roomName);
      const result = await reactionFanOut.writer.toggle({
        roomId: joined.id,
        messageId: body.messageId,
        actor: actor(),
        emoji: body.emoji,
      });
      if (!result.allowed) {
        throw await whyChangeRefused(
          db,
          { roomId: joined.id, messageId: body.messageId, actor: actor() },
          'react',
        );
      }
      // The person hears it at once: this tab in the acknowledgement (unhurried: it may ride with
      // the room's next message to them, within 50 ms, so 500 people reacting each second cost
      // 500 `writev`s a second fewer: decision 013), their other tabs in
      // `reactions_changed` (their browser keeps its `mine` from `by`, `emoji` and `added`); the
      // room within a second, in one `reactions_batch` for every reaction of that second (decision
      // 043). One frame less per reaction: 500 members reacting each second is 500 frames fewer.
      const reaction = {
        roomName: joined.name,
        messageId: body.messageId,
        reactions: result.reactions,
        by: user.id,
        emoji: body.emoji,
        added: result.added,
      };
      reactionFanOut.toggled(joined.id, reaction, socket.id);
      return { ok: true, reaction };
    },
    { unhurriedAnswer: true },
  );
}
