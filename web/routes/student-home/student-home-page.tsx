import { useState } from 'react';
import { ROUTES } from '#contract/routes.ts';
import { useCurrentUser } from '../../api/session.ts';
import { MyLoans } from '../../components/records/my-loans.tsx';
import { MyRequests } from '../../components/records/my-requests.tsx';
import { MyReservations } from '../../components/records/my-reservations.tsx';
import { MyWaitingLists } from '../../components/records/waiting-list.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { VerifyEmailNotice } from '../../components/auth/verify-email-notice.tsx';
import { FormMessage } from '../../components/forms/fields.tsx';
import { WelcomeHero } from '../../components/page/welcome-hero.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ContinueReading } from './continue-reading.tsx';
import styles from './home.module.css';

/** The four categories of the student home, each with what it holds and where to find it. */
export const CATEGORIES = [
  {
    id: 'papers',
    label: 'Research Papers',
    text: 'Peer-reviewed papers and preprints, searchable by title, author and subject.',
    tab: 'research',
  },
  {
    id: 'courses',
    label: 'Course Materials',
    text: 'Lecture notes, reading packs and handbooks your teachers have published.',
    tab: 'courses',
  },
  {
    id: 'books',
    label: 'Books',
    text: 'The catalogue of books, with full texts to read page by page where the library holds them.',
    tab: 'books',
  },
  {
    id: 'journals',
    label: 'Journals',
    text: 'Journal articles sit with the research papers. Missing a journal? Ask the library to get it.',
    tab: 'research',
  },
] as const;

/** `/userprofile`: the student's starting point. */
export function StudentHomePage() {
  useDocumentTitle('Student home');
  const { data: user } = useCurrentUser();
  const [selected, setSelected] = useState<(typeof CATEGORIES)[number]['id']>('books');
  const category = CATEGORIES.find((item) => item.id === selected) ?? CATEGORIES[0];

  return (
    <>
      <WelcomeHero
        id="student-home-title"
        firstName={user?.firstName}
        lead="Find books, research papers and course materials, reserve a copy for pickup, or talk things through with other students."
        actions={
          <>
            <ButtonLink to={ROUTES.librarySearch} variant="primary">
              Get Started
            </ButtonLink>
            <ButtonLink to={ROUTES.discussionForum} variant="outline">
              Discussion Forum
            </ButtonLink>
          </>
        }
      />
      <VerifyEmailNotice />
      {user?.facultyRequest === 'waiting' ? (
        <div className={`container ${styles.notice}`}>
          <FormMessage kind="info">
            Your faculty account is waiting for a librarian’s approval. Until then you use the
            library as a student; publishing course materials and reviewing requests open once it is
            approved.
          </FormMessage>
        </div>
      ) : null}
      <ContinueReading className={`container ${styles.continueReading}`} />
      <section className={`container ${styles.section}`} aria-labelledby="categories-title">
        <h2 id="categories-title" className={styles.sectionTitle}>
          Browse by category
        </h2>
        <div className={styles.toggles} role="group" aria-label="Categories">
          {CATEGORIES.map((item) => (
            <button
              key={item.id}
              type="button"
              className={styles.toggle}
              aria-pressed={item.id === selected}
              aria-controls="category-panel"
              onClick={() => setSelected(item.id)}
            >
              {item.label}
            </button>
          ))}
        </div>
        <div id="category-panel" className={styles.panel} aria-live="polite">
          <h3>{category.label}</h3>
          <p>{category.text}</p>
          <ButtonLink to={`${ROUTES.librarySearch}?tab=${category.tab}`} variant="outline">
            Search {category.label}
          </ButtonLink>
        </div>
      </section>
      <div className={`container ${styles.records}`}>
        <section className={styles.recordsSection} aria-labelledby="my-loans-title">
          <h2 id="my-loans-title" className={styles.sectionTitle}>
            My loans
          </h2>
          <MyLoans />
        </section>
        <section className={styles.recordsSection} aria-labelledby="my-reservations-title">
          <h2 id="my-reservations-title" className={styles.sectionTitle}>
            My reservations
          </h2>
          <MyReservations activeOnly />
          <div className={styles.actions}>
            <ButtonLink to={ROUTES.reservation} variant="outline">
              Reserve a book
            </ButtonLink>
          </div>
        </section>
        <section className={styles.recordsSection} aria-labelledby="my-requests-title">
          <h2 id="my-requests-title" className={styles.sectionTitle}>
            My requests
          </h2>
          <MyRequests />
          <div className={styles.actions}>
            <ButtonLink to={ROUTES.resourceRequest} variant="outline">
              Request a resource
            </ButtonLink>
          </div>
        </section>
        <section className={styles.recordsSection} aria-labelledby="my-waiting-lists-title">
          <h2 id="my-waiting-lists-title" className={styles.sectionTitle}>
            My waiting lists
          </h2>
          <MyWaitingLists />
        </section>
      </div>
    </>
  );
}
