import { useLocation } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import heroIllustration from '../../assets/hero-illustration.svg';
import { ButtonLink } from '../../components/ui/button.tsx';
import { StatCounters } from '../../components/ui/stat-counters.tsx';
import { LANDING_COUNTERS } from '#contract/limits.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { DiscoverSearch } from './discover-search.tsx';
import styles from './landing.module.css';

const AUDIENCES = [
  {
    title: 'Students',
    text: 'Search books, research papers and course materials, reserve a physical copy, request what is missing and discuss it with others.',
  },
  {
    title: 'Faculty',
    text: 'Publish course materials for your students and review the resources they ask the library to get.',
  },
  {
    title: 'Guests',
    text: 'Search the catalogue freely. Sign in with your institution account to read and borrow.',
  },
];

/** `/`: the public face of the library. */
export function LandingPage() {
  useDocumentTitle('');
  // Set by "Delete my account" (web/routes/account/delete-account.tsx) on its way here.
  const farewell = (useLocation().state as { accountDeleted?: unknown } | null)?.accountDeleted;
  return (
    <>
      {typeof farewell === 'string' ? (
        <div className={styles.farewellBar}>
          <p role="status" className={`container ${styles.farewell}`}>
            {farewell}
          </p>
        </div>
      ) : null}
      <section className={styles.hero} aria-labelledby="hero-heading">
        <div className={`container ${styles.heroGrid}`}>
          <div>
            <span className={styles.tag}>Academic Resource Hub</span>
            <h1 id="hero-heading" className={styles.heading}>
              Bridging the Gap in Academic Resource Access
            </h1>
            <p className={styles.subheading}>
              A centralized platform connecting students and researchers with the books, papers and
              course materials they need, all in one campus library.
            </p>
            <div className={styles.actions}>
              <ButtonLink to={ROUTES.signIn} variant="primary">
                Explore Resources
              </ButtonLink>
              <ButtonLink to={ROUTES.signIn} variant="outline">
                Learn More
              </ButtonLink>
            </div>
            <StatCounters
              stats={LANDING_COUNTERS}
              label="The library in numbers"
              className={styles.counters}
            />
          </div>
          <img
            className={styles.heroImage}
            src={heroIllustration}
            width={500}
            height={400}
            alt=""
          />
        </div>
      </section>

      <section
        className={`${styles.section} ${styles.sectionMuted}`}
        aria-labelledby="discover-heading"
      >
        <div className={`container ${styles.discover}`}>
          <h2 id="discover-heading" className={styles.sectionTitle}>
            Discover research
          </h2>
          <p className={styles.discoverText}>Access over 160 million publication pages</p>
          <DiscoverSearch />
        </div>
      </section>

      <section className={styles.section} aria-labelledby="audiences-heading">
        <div className="container">
          <h2 id="audiences-heading" className={styles.sectionTitle}>
            One library for everyone on campus
          </h2>
          <ul className={styles.features}>
            {AUDIENCES.map((audience) => (
              <li key={audience.title} className={styles.feature}>
                <h3>{audience.title}</h3>
                <p>{audience.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}
