import { Link } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useDeskToday } from '../../api/insights.ts';
import styles from './desk.module.css';

/**
 * The three numbers that need the desk's action today, each a link to where it is done: pickups
 * still waiting today, overdue loans, reported messages no moderator has acted on yet, and
 * requests nobody has answered.
 */
export function DeskToday() {
  const today = useDeskToday();
  if (!today.data) return null;
  const { pickupsWaiting, overdueLoans, openReports, openRequests } = today.data;
  const items = [
    { count: pickupsWaiting, label: 'pickups waiting today', to: '#desk-pickups-title' },
    { count: overdueLoans, label: 'overdue loans', to: `${ROUTES.libraryDesk}?loans=overdue` },
    { count: openReports, label: 'open reports', to: ROUTES.deskModeration },
    { count: openRequests, label: 'open requests', to: `${ROUTES.requests}?status=pending` },
  ];
  return (
    <nav aria-label="Needs action today" className={styles.today}>
      <ul className={styles.todayList}>
        {items.map((item) => (
          <li key={item.label}>
            {item.to.startsWith('#') ? (
              <a href={item.to} className={styles.todayLink}>
                <span className={styles.todayCount}>{item.count}</span> {item.label}
              </a>
            ) : (
              <Link to={item.to} className={styles.todayLink}>
                <span className={styles.todayCount}>{item.count}</span> {item.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}
