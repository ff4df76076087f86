import { useCallback } from 'react';
import {
  REACTION_EMOJI,
  type Ack,
  type ChatMessage,
  type ReactionEmoji,
  type ReactionsBatch,
  type ReactionsChanged,
  type ReactionSummary,
} from '#contract/socket/chat.ts';
import { chatRequest } from './chat-socket.ts';

/*
 * Replies, reactions, edits and deletions in the browser (decision 043): how an update from the
 * server changes the messages held, and the three requests.
 */

/**
 * `updated` in place of `held`: an update that does not say its reactions (an edit, a
 * moderator's hide or restore) keeps those held; a deleted or hidden message has none.
 */
export function withHeldReactions(held: ChatMessage, updated: ChatMessage): ChatMessage {
  if (updated.deleted || updated.hidden) {
    const { reactions: _gone, ...rest } = updated;
    return rest;
  }
  if (updated.reactions !== undefined) {
    // A catch-up says `[]` for "none left": held as none.
    if (updated.reactions.length > 0) return updated;
    const { reactions: _none, ...rest } = updated;
    return rest;
  }
  return held.reactions ? { ...updated, reactions: held.reactions } : updated;
}

/**
 * The replies in `messages` that quote `updated`, with their quote brought up to date: an excerpt
 * of its new text, or none once it is deleted or hidden.
 */
export function refreshQuotes(messages: ChatMessage[], updated: ChatMessage): ChatMessage[] {
  let changed = false;
  const next = messages.map((message) => {
    const quote = message.replyTo;
    if (!quote || quote.id !== updated.id) return message;
    changed = true;
    const gone = Boolean(updated.deleted || updated.hidden);
    return {
      ...message,
      replyTo: {
        id: quote.id,
        sender: quote.sender,
        excerpt: gone ? '' : excerptOf(updated.content),
        ...(updated.deleted ? { deleted: true } : {}),
        ...(updated.hidden ? { hidden: true } : {}),
      },
    };
  });
  return changed ? next : messages;
}

/** The text of a message on one line, at most 140 characters (the server's excerpt). */
export function excerptOf(content: string): string {
  const line = content.trim().replace(/\s+/g, ' ');
  if (line.length <= 140) return line;
  return `${line.slice(0, 139).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/**
 * `messages` with one message's reactions replaced by `change`'s. `mine` comes from what was held
 * for each emoji, except the one toggled, when this person (`userId`) toggled it.
 */
export function applyReactions(
  messages: ChatMessage[],
  change: ReactionsChanged,
  userId: string,
): ChatMessage[] {
  if (!messages.some((message) => message.id === change.messageId)) return messages;
  return messages.map((message) => {
    if (message.id !== change.messageId) return message;
    const heldMine = new Set(
      (message.reactions ?? []).filter((reaction) => reaction.mine).map((r) => r.emoji),
    );
    if (change.by === userId) {
      if (change.added) heldMine.add(change.emoji);
      else heldMine.delete(change.emoji);
    }
    const reactions: ReactionSummary[] = change.reactions.map((reaction) => ({
      ...reaction,
      mine: heldMine.has(reaction.emoji),
    }));
    if (reactions.length === 0) {
      const { reactions: _none, ...rest } = message;
      return rest;
    }
    return { ...message, reactions };
  });
}

/**
 * `messages` with the counts of `batch` (a room's `reactions_batch`, decision 043). A batch never
 * changes `mine`: only this person's own toggles do, and those arrive as `reactions_changed`. So a
 * reaction held as theirs stays while a batch lacks it (one read just before their toggle, arriving
 * after it); the next batch brings its count. Deleted and hidden messages keep none.
 */
export function applyReactionsBatch(messages: ChatMessage[], batch: ReactionsBatch): ChatMessage[] {
  const counts = new Map(batch.messages.map((entry) => [entry.messageId, entry.reactions]));
  let changed = false;
  const next = messages.map((message) => {
    const latest = counts.get(message.id);
    if (!latest || message.deleted || message.hidden) return message;
    changed = true;
    const held = message.reactions ?? [];
    const heldMine = new Set(held.filter((reaction) => reaction.mine).map((r) => r.emoji));
    const reactions: ReactionSummary[] = latest.map((reaction) => ({
      ...reaction,
      mine: heldMine.has(reaction.emoji),
    }));
    for (const reaction of held) {
      if (reaction.mine && !latest.some((r) => r.emoji === reaction.emoji))
        reactions.push(reaction);
    }
    reactions.sort((a, b) => REACTION_EMOJI.indexOf(a.emoji) - REACTION_EMOJI.indexOf(b.emoji));
    if (reactions.length === 0) {
      const { reactions: _none, ...rest } = message;
      return rest;
    }
    return { ...message, reactions };
  });
  return changed ? next : messages;
}

/** The requests of decision 043 for one room; each answers the server's acknowledgement. */
export function useThreadRequests(roomName: string) {
  const edit = useCallback(
    (messageId: string, text: string): Promise<Ack> =>
      chatRequest('edit_message', { roomName, messageId, text }),
    [roomName],
  );
  const remove = useCallback(
    (messageId: string): Promise<Ack> => chatRequest('delete_message', { roomName, messageId }),
    [roomName],
  );
  const react = useCallback(
    (messageId: string, emoji: ReactionEmoji): Promise<Ack> =>
      chatRequest('react_message', { roomName, messageId, emoji }),
    [roomName],
  );
  return { edit, remove, react };
}
