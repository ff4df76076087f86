import { ROUTES } from '../../../contract/routes.ts';
import { SimplePage, pageStyles } from '../../components/page/simple-page.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import type { UpcomingScreen } from './screens.ts';

/**
 * A screen of the route table whose feature is still being built. It says plainly what the
 * screen will do and offers a way back, instead of pretending to work.
 */
export function UpcomingPage({ screen }: { screen: UpcomingScreen }) {
  return (
    <SimplePage
      eyebrow="Coming soon"
      title={screen.title}
      lead={screen.purpose}
      actions={
        <ButtonLink to={ROUTES.landing} variant="primary">
          Back to the home page
        </ButtonLink>
      }
    >
      <p className={pageStyles.notice}>
        This part of the library is being built and is not open yet.
      </p>
    </SimplePage>
  );
}
