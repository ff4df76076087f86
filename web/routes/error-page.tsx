import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { SimplePage } from '../components/page/simple-page.tsx';
import { ButtonLink } from '../components/ui/button.tsx';

/**
 * Shown when a screen fails to load or throws while rendering (for instance, a stale tab asking
 * for a code file that a new deploy replaced), instead of a blank page.
 */
export function ErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : undefined;
  // A path such as '//host/x' or '/\host' (typed or linked) would make the reload link another
  // site's address; the browser also drops tabs and newlines, so '/\t/host' would be one too.
  const reloadPath = `/${pathname.replace(/^[\s/\\]+/, '')}`;
  return (
    <SimplePage
      eyebrow="Something went wrong"
      title="This page could not be shown"
      lead="Reloading usually fixes it. If it keeps happening, please tell the library staff."
      actions={
        <>
          <ButtonLink to={reloadPath} reloadDocument variant="primary">
            Reload the page
          </ButtonLink>
          <ButtonLink to={ROUTES.landing} variant="outline">
            Go to the home page
          </ButtonLink>
        </>
      }
    >
      {detail ? <p>{detail}</p> : null}
    </SimplePage>
  );
}
