import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { SearchSuggest } from '../../components/catalogue/search-suggest.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './landing.module.css';

/** Navigation state the guest screen reads its query from. */
export interface GuestSearchState {
  searchQuery: string;
}

/**
 * The 'Discover research' search: sends the query to the guest results screen in navigation
 * state (the spec's contract), and also in the address as `?q=`, so the results can be
 * bookmarked or shared. An empty query is not blocked; the guest screen tells the person what
 * to do. As-you-type suggestions open a title's item (the library search asks a guest to sign
 * in first) or search the guest screen for an author's name.
 */
export function DiscoverSearch() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const inputId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const state: GuestSearchState = { searchQuery: query };
    const trimmed = query.trim();
    const to = trimmed
      ? `${ROUTES.guest}?${new URLSearchParams({ q: trimmed }).toString()}`
      : ROUTES.guest;
    void navigate(to, { state });
  };

  return (
    <form role="search" className={styles.searchForm} onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        Search publications
      </label>
      <SearchSuggest
        id={inputId}
        className={styles.searchInput}
        placeholder="Search publications"
        value={query}
        onValueChange={setQuery}
        maxLength={200}
        onOpenItem={(item) =>
          void navigate(`${ROUTES.librarySearch}?${new URLSearchParams({ item }).toString()}`)
        }
        onAuthor={(author) => {
          const state: GuestSearchState = { searchQuery: author };
          void navigate(`${ROUTES.guest}?${new URLSearchParams({ q: author }).toString()}`, {
            state,
          });
        }}
      />
      <Button type="submit" variant="primary">
        Search
      </Button>
    </form>
  );
}
