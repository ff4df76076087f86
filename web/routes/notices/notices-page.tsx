import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { Notice } from '#contract/http/notices.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useMarkNoticesRead, useNotices, useUnreadNotices } from '../../api/notices.ts';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import { recordStyles, StatusBadge } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './notices.module.css';

/** A notice's link when it is a path inside the app; anything else is not followed. */
function inAppPath(link: string): string | null {
  return /^\/(?![/\\])/.test(link) ? link : null;
}

const failureOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'That did not work. Please try again.';

function NoticeItem({ notice, onOpen }: { notice: Notice; onOpen: (notice: Notice) => void }) {
  const unread = notice.readAt === null;
  const path = inAppPath(notice.link);
  return (
    <li
      className={`${recordStyles.item} ${styles.item}`}
      data-unread={unread || undefined}
      tabIndex={-1}
    >
      <div className={recordStyles.itemHead}>
        <h2 className={recordStyles.itemTitle}>
          {path ? (
            <Link to={path} onClick={() => onOpen(notice)}>
              {notice.title}
            </Link>
          ) : (
            notice.title
          )}
        </h2>
        {unread ? <StatusBadge label="Unread" tone="progress" /> : null}
      </div>
      <p className={styles.body}>{notice.body}</p>
      <p className={recordStyles.meta}>
        <time dateTime={notice.createdAt}>{formatDateTime(notice.createdAt)}</time>
      </p>
    </li>
  );
}

/**
 * `/notices` (issue 21): the signed-in person's notices, newest first, unread ones marked.
 * Following a notice's link marks it read; "Load older" pages back; "Mark all as read" empties
 * the bell.
 */
export function NoticesPage() {
  useDocumentTitle('Notices');
  const notices = useNotices();
  const unread = useUnreadNotices();
  const markRead = useMarkNoticesRead();
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');
  const list = useRef<HTMLUListElement>(null);

  const shown = notices.data?.pages.flatMap((page) => page.payload) ?? [];
  const unreadCount = unread.data ?? 0;

  const markAll = () => {
    if (unreadCount === 0 || markRead.isPending) return;
    setSaid('');
    setFailure('');
    markRead.mutate(
      { all: true },
      {
        onSuccess: () => setSaid('All your notices are marked as read.'),
        onError: (error) => setFailure(failureOf(error)),
      },
    );
  };

  // The person is on their way to the notice's subject; marking it read needs no answer here.
  const open = (notice: Notice) => {
    if (notice.readAt === null) markRead.mutate({ ids: [notice.id] });
  };

  // The first older notice takes the focus once shown, so reading goes on where the button was
  // (which goes away after the last page).
  const focusFrom = useRef<number | null>(null);
  useEffect(() => {
    const index = focusFrom.current;
    if (index === null || shown.length <= index) return;
    focusFrom.current = null;
    list.current?.querySelectorAll('li')[index]?.focus();
  }, [shown.length]);
  const loadOlder = () => {
    focusFrom.current = shown.length;
    void notices.fetchNextPage();
  };

  let content;
  if (notices.isPending) {
    content = <p role="status">Loading your notices…</p>;
  } else if (!notices.data) {
    content = (
      <div className={styles.problem}>
        <p role="alert">Your notices could not be loaded. {failureOf(notices.error)}</p>
        <Button variant="outline" onClick={() => void notices.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (shown.length === 0) {
    content = (
      <p className={styles.empty}>
        You have no notices yet. When a copy you waited for is ready, a pickup slot is near, a loan
        is due or one of your requests changes, it shows up here and on the bell at the top.
      </p>
    );
  } else {
    content = (
      <>
        <ul
          ref={list}
          className={`${recordStyles.list} ${styles.list}`}
          aria-label="Your notices, newest first"
        >
          {shown.map((notice) => (
            <NoticeItem key={notice.id} notice={notice} onOpen={open} />
          ))}
        </ul>
        {notices.isFetchNextPageError ? (
          <p role="alert" className={styles.error}>
            Older notices could not be loaded. {failureOf(notices.error)}
          </p>
        ) : null}
        {notices.hasNextPage ? (
          <div className={styles.more}>
            <Button variant="outline" disabled={notices.isFetchingNextPage} onClick={loadOlder}>
              {notices.isFetchingNextPage ? 'Loading older notices…' : 'Load older notices'}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Notices"
        lead={
          <>
            What the library has told you: copies ready for you, pickup reminders, loans due and
            changes to your requests. Choose which also come by e-mail on{' '}
            <Link to={ROUTES.account}>My account</Link>.
          </>
        }
      />
      <div className={styles.toolbar}>
        <p className={styles.count}>
          {unread.isSuccess
            ? unreadCount === 0
              ? 'No unread notices.'
              : `${unreadCount} unread ${unreadCount === 1 ? 'notice' : 'notices'}.`
            : null}
        </p>
        {shown.length > 0 ? (
          // aria-disabled rather than disabled: the focus stays on the button once all are read.
          <Button
            variant="outline"
            aria-disabled={unreadCount === 0 || markRead.isPending}
            onClick={markAll}
          >
            Mark all as read
          </Button>
        ) : null}
      </div>
      {failure ? (
        <p role="alert" className={styles.error}>
          {failure}
        </p>
      ) : null}
      <p role="status" className={styles.said}>
        {said}
      </p>
      {content}
    </div>
  );
}
