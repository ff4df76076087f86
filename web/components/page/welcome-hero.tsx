import type { ReactNode } from 'react';
import { PageHeader } from './page-header.tsx';
import styles from './page.module.css';

/**
 * The welcome band at the top of a signed-in home: "Welcome, {firstName}" as the screen's `h1`,
 * a lead and the home's main actions. `id` is the heading's, which labels the band.
 */
export function WelcomeHero({
  id,
  firstName,
  lead,
  actions,
}: {
  id: string;
  /** Undefined while the session loads; the greeting fills in when it arrives. */
  firstName: string | undefined;
  lead: ReactNode;
  actions: ReactNode;
}) {
  return (
    <section className={styles.hero} aria-labelledby={id}>
      <div className="container">
        <PageHeader
          id={id}
          title={<>Welcome, {firstName}</>}
          lead={lead}
          prominent
          actions={actions}
        />
      </div>
    </section>
  );
}
