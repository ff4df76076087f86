import { Link } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useDeskToday } from '../../api/insights.ts';
import styles from './desk.module.css';

/**
 * The three numbers that need the desk's action today, each a link to where it is done: pickups
 * still waiting today, overdue loans, requests nobody has answered. Open chat reports join them
 * when moderation lands (another count in `GET /api/insights/today`, another item here).
 */
export function DeskToday() {
  const today = useDeskToday();
  if (!today.data) return null;
  const { pickupsWaiting, overdueLoans, openRequests } = today.data;
  const items = [
    { count: pickupsWaiting, label: 'pickups waiting today', to: '#desk-pickups-title' },
    { count: overdueLoans, label: 'overdue loans', to: `${ROUTES.libraryDesk}?loans=overdue` },
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
