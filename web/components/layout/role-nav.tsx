import { Link, useLocation } from 'react-router';
import type { Role } from '#contract/http/users.ts';
import styles from './layout.module.css';
import { currentEntry, NAV_BY_ROLE } from './role-nav-entries.ts';

/**
 * The signed-in member's main navigation: their role's screens, with the one they are on marked
 * `aria-current="page"`. Its own landmark name keeps it apart from the top bar's Account links.
 */
export function RoleNav({ role }: { role: Role }) {
  const { pathname } = useLocation();
  const entries = NAV_BY_ROLE[role];
  const current = currentEntry(entries, pathname);

  return (
    <nav aria-label="Main" className={styles.roleNav}>
      <ul className={styles.roleNavList}>
        {entries.map((entry) => (
          <li key={entry.to}>
            <Link
              to={entry.to}
              className={styles.roleNavLink}
              aria-current={entry === current ? 'page' : undefined}
            >
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
