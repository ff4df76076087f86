import {
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { homePathFor } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { useCurrentUser, useSignOut } from '../../api/session.ts';
import { Button, ButtonLink } from '../ui/button.tsx';
import { BrandMark } from './brand-mark.tsx';
import styles from './layout.module.css';
import { NoticeBell } from './notice-bell.tsx';
import { RoleNav } from './role-nav.tsx';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg className={styles.menuIcon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/**
 * The bar on top of every screen: the brand, and either the way in or the signed-in member's
 * navigation, account links and notices bell. On narrow screens the links sit behind a Menu
 * button (a disclosure: Escape closes it and gives the focus back to the button), the bell beside
 * it; from 64rem they show inline.
 */
export function TopBar() {
  const { data: user } = useCurrentUser();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const panelId = `${useId()}-menu`;
  const header = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  // The menu remembers the screen it was opened on, so moving to another screen (a link, the
  // back button, a redirect) closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = user != null && openOn === pathname;

  useEffect(() => {
    if (!open) return;
    const closeOnOutsidePress = (event: PointerEvent) => {
      if (!header.current?.contains(event.target as Node)) setOpenOn(null);
    };
    document.addEventListener('pointerdown', closeOnOutsidePress);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePress);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpenOn(null);
      menuButton.current?.focus();
    }
  };

  // Tabbing out of the bar closes the panel so it does not cover the screen being read; a click
  // on nothing focusable (no related target) is left to the outside-press handler.
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const next = event.relatedTarget;
    if (open && next instanceof Node && !header.current?.contains(next)) setOpenOn(null);
  };

  // Choosing a link closes the panel, even the link to the screen already shown.
  const onPanelClick = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest('a')) setOpenOn(null);
  };

  return (
    <header ref={header} className={styles.topBar} onKeyDown={onKeyDown} onBlur={onBlur}>
      <div className={`container ${styles.topBarInner}`}>
        <Link to={ROUTES.landing} className={styles.brand}>
          <BrandMark className={styles.brandMark} />
          Digi Library
        </Link>
        {user ? (
          <>
            <Button
              ref={menuButton}
              variant="outline"
              className={styles.menuButton}
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpenOn(open ? null : pathname)}
            >
              <MenuIcon open={open} />
              Menu
            </Button>
            <div
              id={panelId}
              className={styles.menuPanel}
              data-open={open || undefined}
              onClick={onPanelClick}
            >
              <RoleNav role={user.role} />
              <nav aria-label="Account" className={styles.topBarActions}>
                <ButtonLink to={homePathFor(user.role)} variant="ghost">
                  <span className="visually-hidden">Home of </span>
                  <span className={styles.accountName}>{user.firstName || 'My home'}</span>
                </ButtonLink>
                <ButtonLink to={ROUTES.account} variant="ghost">
                  Account
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
            </div>
            {/* After the panel, so the Tab order follows the eye at both widths: beside Menu on
                a phone, after Sign Out on a wide screen. */}
            <NoticeBell />
          </>
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
