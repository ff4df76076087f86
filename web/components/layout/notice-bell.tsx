import { NavLink } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useLiveNotices, useUnreadNotices } from '../../api/notices.ts';
import styles from './notice-bell.module.css';

function BellIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M6 10a6 6 0 0 1 12 0c0 4.5 1.5 6 2 7H4c.5-1 2-2.5 2-7M10 20a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** The bell's accessible name: "Notices", and how many are unread when some are. */
export function bellName(unread: number): string {
  return unread > 0 ? `Notices, ${unread} unread` : 'Notices';
}

/**
 * The top bar's bell for a signed-in person: a link to their notices with the unread count,
 * kept live over the shared socket once the count has loaded (so a server that does not answer
 * gets no socket either).
 */
export function NoticeBell() {
  const unread = useUnreadNotices();
  useLiveNotices(unread.isSuccess);
  const count = unread.data ?? 0;
  return (
    <NavLink to={ROUTES.notices} className={styles.bell} aria-label={bellName(count)}>
      <BellIcon />
      {count > 0 ? (
        <span className={styles.badge} aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </NavLink>
  );
}
