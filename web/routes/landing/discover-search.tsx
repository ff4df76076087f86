import { type FormEvent, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
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
 * to do.
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
      <input
        id={inputId}
        type="search"
        className={styles.searchInput}
        placeholder="Search publications"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        maxLength={200}
        autoComplete="off"
      />
      <Button type="submit" variant="primary">
        Search
      </Button>
    </form>
  );
}
