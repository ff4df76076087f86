import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { GUEST_DESCRIPTION_PREVIEW, GUEST_MAX_RESULTS } from '#contract/limits.ts';
import { ROUTES } from '#contract/routes.ts';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import { useCatalogueSearch } from '../../api/catalogue.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import { shelfPlaces, shelfText } from '../../components/catalogue/shelf.tsx';
import { webAddress } from '../../components/links/web-address.ts';
import { SimplePage } from '../../components/page/simple-page.tsx';
import { ButtonLink } from '../../components/ui/button.tsx';
import styles from './guest.module.css';

/** Reads the query the landing search sent in navigation state; anything else counts as none. */
export function searchQueryFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'searchQuery' in state) {
    const { searchQuery } = state as { searchQuery: unknown };
    if (typeof searchQuery === 'string') return searchQuery.trim();
  }
  return '';
}

/** The first 100 characters of a description, cut at a word where possible. */
export function previewText(text: string | undefined): string {
  if (!text) return '';
  if (text.length <= GUEST_DESCRIPTION_PREVIEW) return text;
  // Never half an emoji: a cut between a surrogate pair's halves would show as '�'.
  const cut = text.slice(0, GUEST_DESCRIPTION_PREVIEW).replace(/[\uD800-\uDBFF]$/, '');
  return `${cut.slice(0, cut.lastIndexOf(' ') > 60 ? cut.lastIndexOf(' ') : cut.length)}…`;
}

/**
 * `/guest`: books from our catalogue for the landing page's search; reading needs an account.
 * The query comes in navigation state, or in the address (`?q=`) for a shared or bookmarked link.
 */
export function GuestPage() {
  const [params] = useSearchParams();
  const query = searchQueryFromState(useLocation().state) || (params.get('q') ?? '').trim();
  const navigate = useNavigate();
  const results = useCatalogueSearch(
    { q: query, type: 'book', pageSize: GUEST_MAX_RESULTS },
    query !== '',
  );

  const open = (item: CatalogueItem) => {
    void navigate(ROUTES.signIn, { state: { from: `${ROUTES.librarySearch}?item=${item.id}` } });
  };

  return (
    <SimplePage
      eyebrow="Guest search"
      title={query ? `Results for “${query}”` : 'Search the library'}
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
      {query === '' ? (
        <p>Try searching for a book.</p>
      ) : results.isPending ? (
        <p role="status">Loading…</p>
      ) : results.isError ? (
        <p role="alert">Failed to fetch books</p>
      ) : results.data.items.length === 0 ? (
        <p role="status">No books found for your search</p>
      ) : (
        <ul className={styles.list}>
          {results.data.items.slice(0, GUEST_MAX_RESULTS).map((item) => {
            const body = (
              <>
                {/* The title is beside the cover: the cover says nothing more to a screen reader. */}
                <Cover title={item.title} authors={item.authors} url={item.coverUrl} />
                <span className={styles.text}>
                  <span className={styles.title}>{item.title}</span>
                  <span className={styles.authors}>
                    {item.authors.join(', ')}
                    {item.external ? ` · from ${item.external}` : ''}
                  </span>
                  <span>{previewText(item.description)}</span>
                  {item.shelf ? (
                    <span className={styles.authors}>
                      {shelfText(item.shelf)}
                      {item.shelf.locations.length > 0 ? ` · ${shelfPlaces(item.shelf)}` : ''}
                    </span>
                  ) : null}
                </span>
              </>
            );
            // An outside result links out, to a web page only (never `javascript:`).
            const url = item.external ? webAddress(item.url) : undefined;
            return (
              <li key={item.id}>
                {url ? (
                  <a className={styles.result} href={url} target="_blank" rel="noopener noreferrer">
                    {body}
                  </a>
                ) : (
                  <button type="button" className={styles.result} onClick={() => open(item)}>
                    {body}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </SimplePage>
  );
}
