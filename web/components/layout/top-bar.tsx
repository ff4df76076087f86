import { Link, useNavigate } from 'react-router';
import { homePathFor } from '../../../contract/http/users.ts';
import { ROUTES } from '../../../contract/routes.ts';
import { useCurrentUser, useSignOut } from '../../api/session.ts';
import { Button, ButtonLink } from '../ui/button.tsx';
import { BrandMark } from './brand-mark.tsx';
import styles from './layout.module.css';

/** The bar on top of every screen: the brand, and either the way in or the signed-in member's links. */
export function TopBar() {
  const { data: user } = useCurrentUser();
  const signOut = useSignOut();
  const navigate = useNavigate();

  return (
    <header className={styles.topBar}>
      <div className={`container ${styles.topBarInner}`}>
        <Link to={ROUTES.landing} className={styles.brand}>
          <BrandMark className={styles.brandMark} />
          Digi Library
        </Link>
        {user ? (
          <nav aria-label="Account" className={styles.topBarActions}>
            <ButtonLink to={homePathFor(user.role)} variant="ghost">
              <span className="visually-hidden">Home of </span>
              {user.firstName || 'My home'}
            </ButtonLink>
            <Button
              variant="outline"
              disabled={signOut.isPending}
              onClick={() =>
                signOut.mutate(undefined, { onSettled: () => void navigate(ROUTES.landing) })
              }
            >
              Sign Out
            </Button>
          </nav>
        ) : (
          <nav aria-label="Account" className={styles.topBarActions}>
            <ButtonLink to={ROUTES.signIn} variant="outline">
              Sign In
            </ButtonLink>
            <ButtonLink to={ROUTES.signUp} variant="primary">
              Sign Up
            </ButtonLink>
          </nav>
        )}
      </div>
    </header>
  );
}
