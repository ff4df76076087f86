import { type ReactNode, useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { ChatbotWidget } from '../chatbot/chatbot-widget.tsx';
import { Footer } from './footer.tsx';
import styles from './layout.module.css';
import { TopBar } from './top-bar.tsx';

/**
 * The frame of every screen: skip link, top bar, main content, footer, and the Digi Chatbot, which
 * lives here so its conversation survives moving between screens. After a client-side
 * navigation, focus moves to the main content so keyboard and screen-reader users start at the
 * new screen instead of the link they used. `children` replaces the routed screen while the
 * first screen's code is still loading.
 */
export function AppLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    main.current?.focus();
  }, [pathname]);

  return (
    <div className={styles.shell}>
      <a href="#main" className={styles.skipLink}>
        Skip to main content
      </a>
      <TopBar />
      <main id="main" ref={main} tabIndex={-1} className={styles.main}>
        {children ?? <Outlet />}
      </main>
      {/* Hidden, not left out, while the first screen's code loads: it fetches the library's
          details meanwhile, and appears once below the screen instead of being pushed down by
          it (a layout shift). */}
      <Footer hidden={children !== undefined} />
      <ChatbotWidget />
      {children ? null : <ScrollRestoration />}
    </div>
  );
}
