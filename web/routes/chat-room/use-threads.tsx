import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { ChatMessage, ReactionEmoji, ReactionsChanged } from '#contract/socket/chat.ts';
import { useThreadRequests } from '../../api/chat-threads.ts';
import { EditedMark, MessageActions } from './message-actions.tsx';
import type { ThreadSlots } from './message-list.tsx';
import { ReactionPicker, Reactions } from './reactions.tsx';
import { ReplyBanner, ReplyQuote } from './reply-quote.tsx';
import { DeleteDialog, EditDialog } from './thread-dialogs.tsx';
import styles from './threads.module.css';

/** Older pages a jump to a quoted message loads at most before it gives up. */
export const JUMP_PAGES_MAX = 10;
/** How long a jump waits for one older page. */
const PAGE_WAIT_MS = 10_000;
/** How long the original stays highlighted after a jump. */
const HIGHLIGHT_MS = 2_500;

/** What a jump could not find, in words. */
export const JUMP_NOT_FOUND = 'The original message could not be found in this room’s history.';

/**
 * Replies, reactions, edits and deletions on a room's screen (decision 043): the state of the
 * reply being written, the picker, the edit and delete dialogs and a jump to a quoted message,
 * and what each slot of the message list shows.
 */
export function useThreads({
  roomName,
  userId,
  messages,
  hasMore,
  loadingOlder,
  loadOlder,
  onReacted,
  disabled,
}: {
  roomName: string;
  userId: string;
  messages: readonly ChatMessage[];
  hasMore: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  /** This person's toggle went through: the acknowledgement's `reaction` (decision 043). */
  onReacted: (change: ReactionsChanged) => void;
  disabled: boolean;
}) {
  const requests = useThreadRequests(roomName);
  const pickerBase = useId();
  const [replyingTo, setReplyingTo] = useState<ChatMessage | null>(null);
  const [editing, setEditing] = useState<ChatMessage | null>(null);
  const [deleting, setDeleting] = useState<ChatMessage | null>(null);
  const [pickerFor, setPickerFor] = useState<string | null>(null);
  const [error, setError] = useState('');

  const focusComposer = () =>
    document.querySelector<HTMLTextAreaElement>('[data-composer] textarea')?.focus();
  const focusReactButton = (id: string) =>
    document.querySelector<HTMLElement>(`[data-react-for="${CSS.escape(id)}"]`)?.focus();

  const react = useCallback(
    async (id: string, emoji: ReactionEmoji) => {
      const ack = await requests.react(id, emoji);
      setError(ack.ok ? '' : ack.message);
      if (ack.ok && ack.reaction) onReacted(ack.reaction);
    },
    [requests, onReacted],
  );

  // What the last render held, for a jump that waits for older pages to arrive.
  const latest = useRef({ hasMore, loadingOlder, count: messages.length });
  useEffect(() => {
    latest.current = { hasMore, loadingOlder, count: messages.length };
  });

  /** Settles once an older page asked for has arrived (or nothing more can): false on time-out. */
  const pageArrived = async (before: number) => {
    const deadline = Date.now() + PAGE_WAIT_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const now = latest.current;
      if (!now.loadingOlder && (now.count !== before || !now.hasMore)) return true;
    }
    return false;
  };

  /**
   * To the original if held, else one older page at a time, at most `JUMP_PAGES_MAX`: it is then
   * scrolled to, focused and highlighted for a moment.
   */
  const jumpTo = async (id: string) => {
    setError('');
    for (let pages = 0; ; pages += 1) {
      const target = document.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(id)}"]`);
      if (target) {
        target.setAttribute('tabindex', '-1');
        target.scrollIntoView({ block: 'center' });
        target.focus({ preventScroll: true });
        target.classList.add(styles.highlight!);
        window.setTimeout(() => target.classList.remove(styles.highlight!), HIGHLIGHT_MS);
        return;
      }
      if (!latest.current.hasMore || pages >= JUMP_PAGES_MAX) break;
      const before = latest.current.count;
      loadOlder();
      if (!(await pageArrived(before))) break;
    }
    setError(JUMP_NOT_FOUND);
  };

  // A reply to a message that went away (deleted or hidden meanwhile) is still sent; the quote
  // then says so. Only leaving the room ends it.
  const slots: ThreadSlots = {
    actions: (message) => (
      <MessageActions
        message={message}
        userId={userId}
        disabled={disabled}
        pickerOpen={pickerFor === message.id}
        pickerId={`${pickerBase}-${message.id}`}
        onReply={() => {
          setReplyingTo(message);
          focusComposer();
        }}
        onTogglePicker={() => setPickerFor(pickerFor === message.id ? null : message.id)}
        onEdit={() => setEditing(message)}
        onDelete={() => setDeleting(message)}
      />
    ),
    quote: (message) =>
      message.replyTo ? (
        <ReplyQuote quote={message.replyTo} onJump={(id) => void jumpTo(id)} />
      ) : null,
    reactions: (message) => (
      <>
        <EditedMark message={message} />
        <Reactions
          reactions={message.reactions}
          disabled={disabled}
          onToggle={(emoji) => void react(message.id, emoji)}
        />
        {pickerFor === message.id ? (
          <ReactionPicker
            id={`${pickerBase}-${message.id}`}
            mine={new Set((message.reactions ?? []).filter((r) => r.mine).map((r) => r.emoji))}
            onPick={(emoji) => {
              setPickerFor(null);
              void react(message.id, emoji);
              focusReactButton(message.id);
            }}
            onClose={() => {
              setPickerFor(null);
              focusReactButton(message.id);
            }}
          />
        ) : null}
      </>
    ),
  };

  const banner = replyingTo ? (
    <ReplyBanner
      message={replyingTo}
      onCancel={() => {
        setReplyingTo(null);
        focusComposer();
      }}
    />
  ) : null;

  const dialogs = (
    <>
      {editing ? (
        <EditDialog
          key={editing.id}
          message={editing}
          onSave={(text) => requests.edit(editing.id, text)}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {deleting ? (
        <DeleteDialog
          key={deleting.id}
          message={deleting}
          onDelete={() => requests.remove(deleting.id)}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );

  return {
    slots,
    banner,
    dialogs,
    error,
    /** The message the next send replies to. */
    replyTo: replyingTo?.id,
    /** The reply went: the banner goes. */
    replied: () => setReplyingTo(null),
    /** Escape in the composer's area cancels the reply. */
    onComposerKeyDown: (event: KeyboardEvent) => {
      if (event.key === 'Escape' && replyingTo) {
        event.preventDefault();
        setReplyingTo(null);
      }
    },
  };
}
