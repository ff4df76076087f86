import { FACULTY_IMPACT_COUNTERS } from '#contract/limits.ts';
import { ROUTES } from '#contract/routes.ts';
import { useCurrentUser } from '../../api/session.ts';
import { VerifyEmailNotice } from '../../components/auth/verify-email-notice.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import { WelcomeHero } from '../../components/page/welcome-hero.tsx';
import { StatCounters } from '../../components/ui/stat-counters.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from '../student-home/home.module.css';
import { MaterialOpensSection } from './material-opens.tsx';
import { MyMaterialsSection } from './my-materials.tsx';

/** `/facultyprofile`: where faculty and librarians start, and find what they published. */
export function FacultyHomePage() {
  useDocumentTitle('Faculty home');
  const { data: user } = useCurrentUser();
  return (
    <>
      <WelcomeHero
        id="faculty-home-title"
        firstName={user?.firstName}
        lead="Publish course materials for your students and answer the resources they ask the library to get."
        actions={
          <>
            <ButtonLink to={ROUTES.publish} variant="primary">
              Start Publishing
            </ButtonLink>
            <ButtonLink to={ROUTES.requests} variant="outline">
              Book Requests
            </ButtonLink>
            {user?.role === 'librarian' ? (
              <ButtonLink to={ROUTES.libraryDesk} variant="outline">
                Library desk
              </ButtonLink>
            ) : null}
          </>
        }
      />
      <VerifyEmailNotice />
      <MyMaterialsSection />
      <MaterialOpensSection />
      <section className={`container ${styles.section}`} aria-labelledby="impact-title">
        <div className={styles.impact}>
          <h2 id="impact-title" className={styles.sectionTitle}>
            Our Impact
          </h2>
          <StatCounters stats={FACULTY_IMPACT_COUNTERS} label="Our impact in numbers" />
        </div>
      </section>
    </>
  );
}
