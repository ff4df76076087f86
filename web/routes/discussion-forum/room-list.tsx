import { useId, useState } from 'react';
import { CHAT_TEXT, type RoomSummary, type RoomUnread } from '#contract/socket/chat.ts';
import { chatRequest } from '../../api/chat-socket.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { UnreadBadge } from './unread-badge.tsx';
import styles from './discussion-forum.module.css';

/** The rooms whose name holds `query`, ignoring case (the spec's room search). */
export function filterRooms(rooms: readonly RoomSummary[], query: string): RoomSummary[] {
  const needle = query.trim().toLowerCase();
  return needle ? rooms.filter((room) => room.roomName.toLowerCase().includes(needle)) : [...rooms];
}

/** The people in a room at this moment (its `memberCount`: presence, not membership). */
const hereNow = (count: number) => `${count} here now`;

/**
 * 'Available Chat Rooms': search, Join, and Delete (behind a 'Delete Room' confirmation) for the
 * rooms this person created. The server decides again who may delete. The demo data's rooms
 * carry a 'Demo' badge, so nobody takes their conversations for real people's.
 */
export function RoomList({
  rooms,
  userId,
  username,
  onJoin,
  onDeleted,
  unread,
}: {
  /** This person's unread counts and mention markers by lower-case room name (decision 042). */
  unread?: ReadonlyMap<string, RoomUnread> | null;
  rooms: readonly RoomSummary[];
  userId: string;
  username: string;
  onJoin: (roomName: string) => void;
  onDeleted: (roomName: string) => void;
}) {
  const searchId = useId();
  const [query, setQuery] = useState('');
  const [deleting, setDeleting] = useState<RoomSummary | null>(null);
  const [deleteError, setDeleteError] = useState('');
  const [pending, setPending] = useState(false);
  const shown = filterRooms(rooms, query);

  const closeDialog = () => {
    setDeleting(null);
    setDeleteError('');
  };

  const onDelete = async () => {
    if (!deleting) return;
    setPending(true);
    const ack = await chatRequest('close_room', { roomName: deleting.roomName, username });
    setPending(false);
    if (!ack.ok) {
      setDeleteError(ack.message);
      return;
    }
    closeDialog();
    onDeleted(deleting.roomName);
  };

  if (rooms.length === 0) return <p className={styles.empty}>{CHAT_TEXT.noRooms}</p>;

  return (
    <>
      <div className={`${formStyles.field} ${styles.search}`}>
        <label htmlFor={searchId} className={formStyles.label}>
          Search rooms
        </label>
        <input
          id={searchId}
          type="search"
          className={formStyles.input}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
        />
      </div>
      {/* Says how many rooms the search left, for people who cannot see the list change. */}
      <p role="status" className="visually-hidden">
        {query.trim() ? `${shown.length} ${shown.length === 1 ? 'room' : 'rooms'} found` : ''}
      </p>
      {shown.length === 0 ? (
        <p className={styles.empty}>No rooms match “{query.trim()}”.</p>
      ) : (
        <ul className={styles.rooms}>
          {shown.map((room) => {
            const mine = room.creatorId === userId;
            return (
              <li key={room.roomName} className={styles.room}>
                <div className={styles.roomText}>
                  <div className={styles.roomTitle}>
                    <h3 className={styles.roomName}>{room.roomName}</h3>
                    {room.isDemo ? <StatusBadge label="Demo" /> : null}
                    <UnreadBadge unread={unread?.get(room.roomName.toLowerCase())} />
                  </div>
                  {room.description ? (
                    <p className={styles.description}>{room.description}</p>
                  ) : null}
                  <p className={styles.muted}>
                    Created by {room.creator}
                    {mine ? ' (you)' : ''} · {hereNow(room.memberCount)}
                    {room.abuseDetected ? ' · Restricted' : ''}
                  </p>
                </div>
                <div className={styles.roomActions}>
                  <Button onClick={() => onJoin(room.roomName)}>
                    Join<span className="visually-hidden"> {room.roomName}</span>
                  </Button>
                  {mine ? (
                    <Button variant="outline" onClick={() => setDeleting(room)}>
                      Delete<span className="visually-hidden"> {room.roomName}</span>
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Dialog
        open={deleting !== null}
        title="Delete Room"
        onClose={closeDialog}
        actions={
          <>
            <Button variant="outline" onClick={closeDialog} data-autofocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void onDelete()} disabled={pending}>
              {pending ? 'Deleting…' : 'Delete'}
            </Button>
          </>
        }
      >
        <p>Are you sure you want to delete “{deleting?.roomName}”?</p>
        <p>This removes the room and its messages for all users. This cannot be undone.</p>
        {deleteError ? <p role="alert">{deleteError}</p> : null}
      </Dialog>
    </>
  );
}
