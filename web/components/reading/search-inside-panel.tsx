import { type FormEvent, Fragment, useId, useState } from 'react';
import { SEARCH_INSIDE_QUERY_MAX, type SnippetPart } from '#contract/http/reading.ts';
import { useSearchInside } from '../../api/reading.ts';
import { formStyles } from '../forms/fields.tsx';
import { Button } from '../ui/button.tsx';
import styles from './book-viewer.module.css';

/** A hit's passage: the words found as `<mark>`, everything as text (never HTML). */
export function Snippet({ parts }: { parts: readonly SnippetPart[] }) {
  return (
    <>
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index}>{part.text}</mark>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/**
 * "Search in book": a box, then every page that holds the words with a passage around them. A
 * hit shows its page with the words marked on it.
 */
export function SearchInsidePanel({
  itemId,
  page,
  query,
  onSearch,
  onJump,
}: {
  itemId: string;
  page: number;
  /** The words searched for (kept by the viewer while the panel is closed). */
  query: string;
  onSearch: (query: string) => void;
  onJump: (page: number, words: string[]) => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState(query);
  const [empty, setEmpty] = useState(false);
  const search = useSearchInside(itemId, query);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setEmpty(draft.trim() === '');
    onSearch(draft.trim());
  };

  return (
    <div className={styles.searchInside}>
      <form role="search" className={styles.searchForm} onSubmit={submit}>
        <label htmlFor={inputId} className={formStyles.label}>
          Words to find in this book
        </label>
        <div className={styles.searchRow}>
          <input
            id={inputId}
            type="search"
            className={formStyles.input}
            value={draft}
            maxLength={SEARCH_INSIDE_QUERY_MAX}
            data-autofocus
            onChange={(event) => setDraft(event.target.value)}
          />
          <Button type="submit">Search</Button>
        </div>
      </form>
      {empty ? (
        <p role="alert">Type a word to search for in this book.</p>
      ) : query === '' ? null : search.isPending ? (
        <p role="status">Searching…</p>
      ) : search.isError ? (
        <p role="alert">{search.error.message}</p>
      ) : (
        <>
          <p role="status" className={styles.searchTotal}>
            {search.data.total === 0
              ? `No page holds “${search.data.query}”.`
              : `${plural(search.data.total, 'page holds', 'pages hold')} “${search.data.query}”` +
                (search.data.hits.length < search.data.total
                  ? `; the first ${search.data.hits.length.toLocaleString('en-US')} are listed.`
                  : '.')}
          </p>
          {search.data.hits.length > 0 ? (
            <ol className={styles.hits} aria-label="Pages found">
              {search.data.hits.map((hit) => (
                <li key={hit.page}>
                  <button
                    type="button"
                    className={styles.hit}
                    aria-current={hit.page === page ? 'page' : undefined}
                    onClick={() => onJump(hit.page, search.data.words)}
                  >
                    <span className={styles.hitPage}>Page {hit.page}</span>
                    <span className={styles.snippet}>
                      <Snippet parts={hit.snippet} />
                    </span>
                  </button>
                </li>
              ))}
            </ol>
          ) : null}
        </>
      )}
    </div>
  );
}
