import { useLocation } from 'react-router';
import { ROUTES } from '../../../contract/routes.ts';
import { SimplePage, pageStyles } from '../../components/page/simple-page.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';

/** Reads the query the landing search sent in navigation state; anything else counts as none. */
export function searchQueryFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'searchQuery' in state) {
    const { searchQuery } = state as { searchQuery: unknown };
    if (typeof searchQuery === 'string') return searchQuery.trim();
  }
  return '';
}

/**
 * `/guest`: results of the landing page's search for people who are not signed in. The
 * catalogue behind it is not connected yet, and the screen says so instead of showing
 * invented results.
 */
export function GuestPage() {
  const query = searchQueryFromState(useLocation().state);
  return (
    <SimplePage
      eyebrow="Guest search"
      title={query ? `Results for “${query}”` : 'Search the library'}
      lead={query ? undefined : 'Try searching for a book.'}
      actions={
        <>
          <ButtonLink to={ROUTES.landing} variant="primary">
            New search
          </ButtonLink>
          <ButtonLink to={ROUTES.signIn} variant="outline">
            Sign In to read
          </ButtonLink>
        </>
      }
    >
      {query ? (
        <p className={pageStyles.notice}>
          Catalogue search is being connected and cannot show results yet. Please try again soon.
        </p>
      ) : null}
    </SimplePage>
  );
}
