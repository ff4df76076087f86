import { Link } from 'react-router';
import { ROUTES } from '../../../contract/routes.ts';
import { ButtonLink } from '../ui/button.tsx';
import { BrandMark } from './brand-mark.tsx';
import styles from './layout.module.css';

/** The bar on top of every screen: the brand (home) and the way in for guests. */
export function TopBar() {
  return (
    <header className={styles.topBar}>
      <div className={`container ${styles.topBarInner}`}>
        <Link to={ROUTES.landing} className={styles.brand}>
          <BrandMark className={styles.brandMark} />
          Digi Library
        </Link>
        <nav aria-label="Account" className={styles.topBarActions}>
          <ButtonLink to={ROUTES.signIn} variant="outline">
            Sign In
          </ButtonLink>
          <ButtonLink to={ROUTES.signUp} variant="primary">
            Sign Up
          </ButtonLink>
        </nav>
      </div>
    </header>
  );
}
