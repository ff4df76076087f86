import { useLocation } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { SimplePage } from '../../components/page/simple-page.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';

/** Any path that is not a screen of the product. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <SimplePage
      eyebrow="Error 404"
      title="Page not found"
      lead={
        <>
          There is no page at <code>{pathname}</code>. It may have moved, or the link may be
          mistyped.
        </>
      }
      actions={
        <>
          <ButtonLink to={ROUTES.landing} variant="primary">
            Go to the home page
          </ButtonLink>
          <ButtonLink to={ROUTES.signIn} variant="outline">
            Sign In
          </ButtonLink>
        </>
      }
    />
  );
}
