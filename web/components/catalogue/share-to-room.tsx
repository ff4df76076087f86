import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { itemLink } from '#contract/http/item-cards.ts';
import type { ItemType } from '#contract/http/catalogue.ts';
import { roomPath } from '#contract/routes.ts';
import { MESSAGE_MAX } from '#contract/socket/chat.ts';
import { ApiError } from '../../api/client.ts';
import {
  chatRequest,
  leaveChatRoom,
  useAvailableRooms,
  useChatConnection,
} from '../../api/chat-socket.ts';
import { useOpenItemRoom } from '../../api/item-cards.ts';
import { useCurrentUser } from '../../api/session.ts';
import { FieldFrame, FormMessage, formStyles } from '../forms/fields.tsx';
import { Button, ButtonLink } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import styles from './share-to-room.module.css';

/** What "Discuss this …" calls an item of each type. */
const DISCUSS_LABEL: Record<ItemType, string> = {
  book: 'Discuss this book',
  paper: 'Discuss this paper',
  course: 'Discuss this material',
};

/**
 * An item's place in the conversation (decision 045), for signed-in people: "Share to a room"
 * (a message with the item's link, sent through the ordinary send path) and "Discuss this book",
 * which opens the item's own room, creating it the first time.
 */
export function ItemChatActions({
  itemId,
  title,
  type,
}: {
  itemId: string;
  title: string;
  type: ItemType;
}) {
  const { data: user } = useCurrentUser();
  const [sharing, setSharing] = useState(false);
  const openRoom = useOpenItemRoom();
  const navigate = useNavigate();
  if (!user) return null;
  return (
    <div className={styles.actions}>
      <Button variant="outline" onClick={() => setSharing(true)}>
        Share to a room
      </Button>
      <Button
        variant="outline"
        disabled={openRoom.isPending}
        onClick={() =>
          openRoom.mutate(itemId, {
            onSuccess: ({ roomName }) => void navigate(roomPath(roomName)),
          })
        }
      >
        {openRoom.isPending ? 'Opening the room…' : DISCUSS_LABEL[type]}
      </Button>
      <FormMessage>
        {openRoom.isError
          ? openRoom.error instanceof ApiError
            ? openRoom.error.message
            : 'The room could not be opened. Please try again.'
          : ''}
      </FormMessage>
      {sharing ? (
        <ShareDialog itemId={itemId} title={title} onClose={() => setSharing(false)} />
      ) : null}
    </div>
  );
}

/** The dialog: choose an open room (searchable), add a comment, send; then offer to open it. */
function ShareDialog({
  itemId,
  title,
  onClose,
}: {
  itemId: string;
  title: string;
  onClose: () => void;
}) {
  // Holds the chat's socket while the dialog is open: the room list comes with it.
  const connection = useChatConnection();
  const rooms = useAvailableRooms();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const link = `${window.location.origin}${itemLink(itemId)}`;
  const commentMax = MESSAGE_MAX - link.length - 1;

  const shown = useMemo(() => {
    const words = search.trim().toLowerCase();
    return (rooms ?? []).filter(
      (room) =>
        !room.abuseDetected && (words === '' || room.roomName.toLowerCase().includes(words)),
    );
  }, [rooms, search]);

  const share = async () => {
    setError('');
    if (!chosen) {
      setError('Choose a room to share to.');
      return;
    }
    setSending(true);
    // The ordinary path: join, send (moderation, mutes, slow mode and members-only apply), leave.
    const joined = await chatRequest('join_room', { roomName: chosen });
    const answer = joined.ok
      ? await chatRequest('send_message', {
          room: chosen,
          message: comment.trim() ? `${comment.trim()}\n${link}` : link,
          clientId: crypto.randomUUID(),
        })
      : joined;
    if (joined.ok) leaveChatRoom();
    setSending(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    setSent(chosen);
  };

  if (sent) {
    return (
      <Dialog
        open
        title="Shared"
        onClose={onClose}
        actions={
          <>
            <Button variant="outline" onClick={onClose} data-autofocus>
              Close
            </Button>
            <ButtonLink to={roomPath(sent)}>Open the room</ButtonLink>
          </>
        }
      >
        <p role="status">
          {title} was shared to {sent}.
        </p>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      title={`Share "${title}" to a room`}
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void share()} disabled={sending || !chosen}>
            {sending ? 'Sharing…' : 'Share'}
          </Button>
        </>
      }
    >
      {connection.status === 'refused' ? (
        <p role="alert">{connection.message}</p>
      ) : rooms === null ? (
        <p role="status">Loading the rooms…</p>
      ) : (
        <>
          <FieldFrame label="Find a room">
            {(control) => (
              <input
                {...control}
                type="search"
                className={formStyles.input}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                data-autofocus
              />
            )}
          </FieldFrame>
          <fieldset className={styles.rooms}>
            <legend>Open rooms</legend>
            {shown.length === 0 ? (
              <p className={styles.empty}>No open room matches.</p>
            ) : (
              shown.map((room) => (
                <label key={room.roomName} className={styles.room}>
                  <input
                    type="radio"
                    name="share-room"
                    value={room.roomName}
                    checked={chosen === room.roomName}
                    onChange={() => setChosen(room.roomName)}
                  />
                  <span>{room.roomName}</span>
                  <span className={styles.count}>
                    {room.memberCount} {room.memberCount === 1 ? 'member' : 'members'}
                  </span>
                </label>
              ))
            )}
          </fieldset>
          <FieldFrame label="Comment (optional)">
            {(control) => (
              <textarea
                {...control}
                className={`${formStyles.input} ${formStyles.textarea}`}
                rows={3}
                maxLength={commentMax}
                value={comment}
                onChange={(event) => setComment(event.target.value)}
              />
            )}
          </FieldFrame>
          <FormMessage>{error}</FormMessage>
        </>
      )}
    </Dialog>
  );
}
