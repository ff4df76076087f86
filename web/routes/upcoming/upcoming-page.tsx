import { ROUTES } from '../../../contract/routes.ts';
import { SimplePage, pageStyles } from '../../components/page/simple-page.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import type { UpcomingScreen } from './screens.ts';

const AUDIENCE_TEXT: Record<UpcomingScreen['audience'], string> = {
  everyone: 'Accounts are being set up for the library.',
  students: 'This screen is for students and comes with sign-in.',
  faculty: 'This screen is for faculty and comes with sign-in.',
  'signed-in': 'This screen is for signed-in members and comes with sign-in.',
};

/**
 * A screen of the route table whose feature needs accounts, which are not open yet. It says
 * plainly what the screen will do and offers the ways that work today.
 */
export function UpcomingPage({ screen }: { screen: UpcomingScreen }) {
  return (
    <SimplePage
      eyebrow="Coming with sign-in"
      title={screen.title}
      lead={screen.purpose}
      actions={
        <ButtonLink to={ROUTES.landing} variant="primary">
          Back to the home page
        </ButtonLink>
      }
    >
      <p className={pageStyles.notice}>
        {AUDIENCE_TEXT[screen.audience]} Sign-in is not available yet, so nothing here can be used
        for now.
      </p>
    </SimplePage>
  );
}
