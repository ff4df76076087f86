import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { roomPath } from '#contract/routes.ts';
import { CHAT_TEXT } from '#contract/socket/chat.ts';
import { useUnreadCounts } from '../../api/chat-attention.ts';
import { useAvailableRooms, useChatConnection } from '../../api/chat-socket.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ConnectionNotice } from '../../components/chat/connection-notice.tsx';
import { FormMessage } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { CreateRoomForm } from './create-room-form.tsx';
import { RoomList } from './room-list.tsx';
import { UsernameCard } from './username-card.tsx';
import styles from './discussion-forum.module.css';

const CREATE_FORM_ID = 'create-room-form';

/**
 * `/userprofile/discussion-forum`: the name to chat under, and the live list of rooms (pushed by
 * the server on every change) to search, join, create or delete one's own. The rooms show before
 * a name is chosen; joining or creating one asks for it.
 */
export function DiscussionForumPage() {
  useDocumentTitle('Discussion Forum');
  const { data: user } = useCurrentUser();
  const connection = useChatConnection();
  const rooms = useAvailableRooms();
  // Unread counts and mention markers per room, asked for by this page (decision 042).
  const unread = useUnreadCounts();
  const navigate = useNavigate();

  const username = user?.chatUsername ?? '';
  const [editingName, setEditingName] = useState(false);
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState('');
  const [joinError, setJoinError] = useState('');
  /** Bumped to move focus to the username field. */
  const [nameFocus, setNameFocus] = useState(0);
  const identityRef = useRef<HTMLParagraphElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const announce = (text: string) => {
    setNotice(text);
    // The control that was used is gone (a closed form, a deleted row): the message takes focus.
    requestAnimationFrame(() => noticeRef.current?.focus());
  };

  const onNameSaved = () => {
    setEditingName(false);
    setJoinError('');
    requestAnimationFrame(() => identityRef.current?.focus());
  };

  const onJoin = (roomName: string) => {
    if (!username.trim()) {
      // The rooms show before a name is chosen; joining needs one, so the name field takes focus.
      setJoinError(CHAT_TEXT.needUsername);
      setNameFocus((count) => count + 1);
      return;
    }
    void navigate(roomPath(roomName));
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Discussion Forum"
        lead="Talk about your courses in public chat rooms, or start a room of your own."
      />
      <ConnectionNotice connection={connection} />

      {!username || editingName ? (
        <UsernameCard
          initial={username || user?.firstName || ''}
          onSaved={onNameSaved}
          onCancel={username ? () => setEditingName(false) : undefined}
          focusSignal={nameFocus}
        />
      ) : (
        <p ref={identityRef} tabIndex={-1} className={styles.identity}>
          <span>
            You chat as <strong>{username}</strong>
          </span>
          <Button variant="ghost" onClick={() => setEditingName(true)}>
            Change username
          </Button>
        </p>
      )}

      <section className={styles.section} aria-labelledby="rooms-title">
        <div className={styles.sectionHead}>
          <h2 id="rooms-title" className={styles.sectionTitle}>
            Available Chat Rooms
          </h2>
          <Button
            variant={creating ? 'outline' : 'primary'}
            aria-expanded={creating}
            aria-controls={creating ? CREATE_FORM_ID : undefined}
            onClick={() => {
              setCreating((open) => !open);
              setNotice('');
            }}
          >
            {creating ? 'Cancel' : 'Create New Room'}
          </Button>
        </div>
        {creating ? (
          <CreateRoomForm
            id={CREATE_FORM_ID}
            username={username}
            onCreated={(roomName) => {
              setCreating(false);
              announce(`Room “${roomName}” created. Join it from the list below.`);
            }}
          />
        ) : null}
        <p ref={noticeRef} tabIndex={-1} role="status" className={styles.notice}>
          {notice}
        </p>
        <FormMessage>{joinError}</FormMessage>
        {rooms ? (
          <RoomList
            rooms={rooms}
            userId={user?.id ?? ''}
            username={username}
            onJoin={onJoin}
            onDeleted={(roomName) => announce(`Room “${roomName}” deleted.`)}
            unread={unread}
          />
        ) : connection.status === 'refused' ? null : (
          <p role="status">Loading the rooms…</p>
        )}
      </section>
    </div>
  );
}
