import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { homePathFor, type CurrentUser } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { CHAT_TEXT, type ChatMessage } from '#contract/socket/chat.ts';
import { useModerator } from '../../api/chat.ts';
import { useMarkRead, useRoomMembers } from '../../api/chat-attention.ts';
import { useRoom } from '../../api/chat-room.ts';
import { useRoomPresence, useTypingSender } from '../../api/room-presence.ts';
import { leaveChatRoom, useChatConnection } from '../../api/chat-socket.ts';
import { useCurrentUser } from '../../api/session.ts';
import { ConnectionNotice } from '../../components/chat/connection-notice.tsx';
import { FormMessage } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useActiveMute } from './active-mute.ts';
import { RoomItemCard } from './item-card.tsx';
import { MessageComposer } from './message-composer.tsx';
import { MessageList } from './message-list.tsx';
import { PresenceList } from './presence-list.tsx';
import { ReportDialog } from './report-dialog.tsx';
import { RoomSettingsDialog, RulesPanel } from './room-rules.tsx';
import { mentionsUser } from './mention-text.tsx';
import { useSeekUnread } from './use-seek-unread.ts';
import { TypingIndicator } from './typing-indicator.tsx';
import { useThreads } from './use-threads.tsx';
import styles from './chat-room.module.css';

/**
 * `/room/:roomName`: one chat room. Someone without a forum username is sent to the forum to
 * choose one first, since every message carries it.
 */
export function ChatRoomPage() {
  const { roomName = '' } = useParams();
  const { data: user } = useCurrentUser();
  if (!user) return null;
  if (!user.chatUsername) return <Navigate to={ROUTES.discussionForum} replace />;
  // A new room is a fresh screen: its messages and restriction must not leak into the next.
  return <ChatRoom key={roomName} roomName={roomName} user={user} />;
}

function ChatRoom({ roomName, user }: { roomName: string; user: CurrentUser }) {
  const connection = useChatConnection();
  const room = useRoom(roomName, user.id);
  // Mentions and unread (decision 042): the @ list's members, the read marker, a notice's link.
  const members = useRoomMembers(roomName);
  const markRead = useMarkRead(roomName);
  const [searchParams] = useSearchParams();
  const focusId = searchParams.get('message') ?? undefined;
  const seeking = useSeekUnread(room, focusId);
  const moderator = useModerator();
  // Who types and who is here (decision 044); a mute disables the box until it ends or is lifted.
  const { typing, presence } = useRoomPresence(roomName, user.id);
  const onDraftChange = useTypingSender(roomName);
  const mute = useActiveMute(room.notice);
  const navigate = useNavigate();
  const [confirmingClose, setConfirmingClose] = useState(false);
  const [closeError, setCloseError] = useState('');
  const [closing, setClosing] = useState(false);
  const [actionError, setActionError] = useState('');
  const [reporting, setReporting] = useState<ChatMessage | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [rulesDismissed, setRulesDismissed] = useState(false);

  const name = room.metadata?.roomName ?? roomName;
  useDocumentTitle(`Chat Room: ${name}`);
  const isCreator = room.metadata !== null && room.metadata.creatorId === user.id;
  const mayManage = isCreator || user.role === 'librarian';
  // Replies, reactions, edits and deletions (decision 043).
  const threads = useThreads({
    roomName,
    userId: user.id,
    messages: room.messages,
    hasMore: room.hasMore,
    loadingOlder: room.loadingOlder,
    loadOlder: room.loadOlder,
    onReacted: room.reacted,
    disabled:
      room.restricted ||
      room.closed ||
      room.notice?.action === 'remove' ||
      connection.status !== 'connected',
  });

  const leave = () => {
    leaveChatRoom();
    void navigate(ROUTES.discussionForum);
  };

  const onSend = async (text: string) => {
    if (moderator.isAbusive(text)) {
      // Never sent as a message: the room is restricted here at once, and the text goes with the
      // report, so the server restricts it for everyone when its own matcher agrees.
      room.reportAbuse(text);
      return { clear: true };
    }
    const ack = await room.send(text, user.chatUsername, threads.replyTo);
    if (ack.ok) threads.replied();
    return ack.ok ? { clear: true } : { clear: false, error: ack.message };
  };

  const onCloseRoom = async () => {
    setClosing(true);
    const ack = await room.closeRoom(user.chatUsername);
    setClosing(false);
    // On success `room_closed` arrives here too and its alert takes over.
    if (ack.ok) setConfirmingClose(false);
    else setCloseError(ack.message);
  };

  const banner = useRef<HTMLDivElement>(null);
  const warned = useRef(false);
  // When the warning closes on a restricted room, the box that had the focus is disabled: the
  // banner takes it. (An effect of this parent runs after the dialog's own, which closes it and
  // so makes the page outside it focusable again.)
  useEffect(() => {
    if (warned.current && !room.warning && room.restricted) banner.current?.focus();
    warned.current = room.warning;
  }, [room.warning, room.restricted]);

  const onLift = async () => {
    const ack = await room.liftRestriction();
    setActionError(ack.ok ? '' : ack.message);
  };

  if (room.joinError) {
    return (
      <div className={`container ${styles.page}`}>
        <h1 className={styles.title}>Chat Room: {name}</h1>
        <FormMessage>{room.joinError}</FormMessage>
        <p>
          <Link to={ROUTES.discussionForum}>Back to the discussion forum</Link>
        </p>
      </div>
    );
  }

  const live = room.live && room.live.senderId !== user.id ? room.live : null;

  return (
    <div className={`container ${styles.page}`}>
      <header className={styles.header}>
        <div className={styles.heading}>
          <h1 className={styles.title}>Chat Room: {name}</h1>
          {isCreator ? <span className={styles.badge}>Creator</span> : null}
          {room.metadata?.isDemo ? (
            <span
              className={styles.badge}
              title="A room of the demo data, with an example conversation"
            >
              Demo
            </span>
          ) : null}
          <PresenceList presence={presence} />
        </div>
        <div className={styles.headerActions}>
          {mayManage ? (
            <Button variant="outline" onClick={() => setSettingsOpen(true)}>
              Room settings
            </Button>
          ) : null}
          {mayManage ? (
            <Button
              variant="danger"
              onClick={() => {
                setCloseError('');
                setConfirmingClose(true);
              }}
              disabled={room.closed}
            >
              Close Room
            </Button>
          ) : null}
          <Button variant="outline" onClick={leave}>
            Leave Room
          </Button>
        </div>
      </header>
      {room.metadata?.itemId ? <RoomItemCard itemId={room.metadata.itemId} /> : null}
      <ConnectionNotice connection={connection} />

      {room.restricted ? (
        <div ref={banner} tabIndex={-1} className={styles.banner}>
          <p role="status">{CHAT_TEXT.restricted}</p>
          {mayManage ? (
            <Button variant="outline" onClick={() => void onLift()}>
              Lift restriction
            </Button>
          ) : null}
        </div>
      ) : null}
      {room.notice ? (
        // What a moderator did, why and until when (decision 040), in plain words.
        <div className={styles.notice} role="alert">
          <p>{room.notice.message}</p>
        </div>
      ) : null}
      {room.metadata?.rules && !rulesDismissed ? (
        <RulesPanel rules={room.metadata.rules} onDismiss={() => setRulesDismissed(true)} />
      ) : null}
      <FormMessage>{actionError || threads.error || room.error}</FormMessage>

      <MessageList
        messages={room.messages}
        userId={user.id}
        loaded={room.loaded}
        hasMore={room.hasMore}
        loadingOlder={room.loadingOlder}
        onLoadOlder={room.loadOlder}
        onReport={setReporting}
        threads={threads.slots}
        lastReadId={room.lastReadId}
        focusId={focusId}
        onReadTo={markRead}
        seeking={seeking}
      />
      {/* New messages from others only; history and one's own messages are not read out. */}
      <p className="visually-hidden" aria-live="polite">
        {live
          ? `${live.sender}: ${live.content}${mentionsUser(live.mentions, user.id) ? ' (mentions you)' : ''}`
          : ''}
      </p>
      <TypingIndicator typing={typing} />
      {/* Escape anywhere in the composer's area cancels a reply being written. */}
      <div data-composer className={styles.composerArea} onKeyDown={threads.onComposerKeyDown}>
        {threads.banner}
        <MessageComposer
          disabled={
            room.restricted ||
            room.closed ||
            room.notice?.action === 'remove' ||
            mute !== null ||
            connection.status !== 'connected'
          }
          onSend={onSend}
          slowModeSeconds={room.metadata?.rules?.slowModeSeconds ?? 0}
          onDraftChange={onDraftChange}
          disabledReason={mute?.message}
          mentions={{ members: members.members, onNeed: members.load, selfId: user.id }}
        />
      </div>
      {threads.dialogs}

      <ReportDialog
        message={reporting}
        onReport={room.reportMessage}
        onClose={() => setReporting(null)}
      />
      {settingsOpen ? (
        <RoomSettingsDialog
          open
          current={room.metadata?.rules}
          onSave={room.setRules}
          onClose={() => setSettingsOpen(false)}
        />
      ) : null}

      <Dialog
        open={room.warning}
        title="Inappropriate language"
        onClose={room.acknowledge}
        actions={
          <>
            <Button onClick={room.acknowledge} data-autofocus>
              Acknowledge
            </Button>
            <Button variant="outline" onClick={leave}>
              Leave Room
            </Button>
          </>
        }
      >
        <p>{CHAT_TEXT.abuseWarning}</p>
        <p>{CHAT_TEXT.abuseWarningMore}</p>
      </Dialog>

      <Dialog
        open={confirmingClose && !room.closed}
        title="Close Room"
        onClose={() => setConfirmingClose(false)}
        actions={
          <>
            <Button variant="outline" onClick={() => setConfirmingClose(false)} data-autofocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void onCloseRoom()} disabled={closing}>
              {closing ? 'Closing…' : 'Close Room'}
            </Button>
          </>
        }
      >
        <p>Close “{name}” for everyone in it?</p>
        <p>The room and its messages are removed for all users. This cannot be undone.</p>
        {closeError ? <p role="alert">{closeError}</p> : null}
      </Dialog>

      <Dialog
        open={room.closed}
        alert
        title="Room closed"
        onClose={() => void navigate(homePathFor(user.role))}
        actions={
          <Button onClick={() => void navigate(homePathFor(user.role))} data-autofocus>
            OK
          </Button>
        }
      >
        <p>{CHAT_TEXT.roomClosed(name)}</p>
      </Dialog>
    </div>
  );
}
