import { type FormEvent, useId, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ITEM_TYPES, type CatalogueItem, type ItemType } from '#contract/http/catalogue.ts';
import { catalogueItemPath, ROUTES } from '#contract/routes.ts';
import { useCatalogueSearch } from '../../api/catalogue.ts';
import { Pager } from '../../components/catalogue/pager.tsx';
import { formStyles } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import type { CatalogueState } from './catalogue-item-page.tsx';
import styles from './desk-catalogue.module.css';
import { ImportSection } from './import-section.tsx';
import { ITEM_TYPE_LABELS } from './labels.ts';
import { SearchByMeaningLine } from './search-by-meaning-line.tsx';

const PAGE_SIZE = 20;

/** The search lives in the URL, so Back from an item returns to it and a reload keeps it. */
function useCatalogueParams() {
  const [params, setParams] = useSearchParams();
  const typeParam = params.get('type');
  const state = {
    q: params.get('q') ?? '',
    type: ITEM_TYPES.includes(typeParam as ItemType) ? (typeParam as ItemType) : undefined,
    withdrawn: params.get('withdrawn') === '1',
    page: Math.max(1, Math.floor(Number(params.get('page'))) || 1),
  };
  const update = (changes: Partial<Record<keyof typeof state, string | null>>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '' || value === undefined) next.delete(key);
      else next.set(key, value);
    }
    // A new search or filter starts at its first page.
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  return { ...state, update };
}

/** One result: its title links to the item; author, year and kind below; withdrawn ones say so. */
function ResultRow({ item, search }: { item: CatalogueItem; search: string }) {
  const state: CatalogueState = { search };
  return (
    <li className={styles.result}>
      <div className={styles.resultHead}>
        <Link to={catalogueItemPath(item.id)} state={state} className={styles.resultTitle}>
          {item.title}
        </Link>
        {item.withdrawn ? <StatusBadge label="Withdrawn" tone="negative" /> : null}
      </div>
      <p className={styles.muted}>
        {[
          item.authors.join(', ') || 'No author given',
          item.year ?? 'Year unknown',
          ITEM_TYPE_LABELS[item.type],
        ].join(' · ')}
      </p>
    </li>
  );
}

/** What a search found, in words, with the filters that narrowed it. */
function resultsText(
  total: number,
  capped: boolean,
  { q, type, withdrawn }: { q: string; type?: ItemType; withdrawn: boolean },
): string {
  const among = type ? ` among ${ITEM_TYPE_LABELS[type].toLowerCase()}s` : '';
  if (total === 0) {
    return `No item matches “${q}”${among}.${withdrawn ? '' : ' Withdrawn items are left out: tick “Show withdrawn items” to include them.'}`;
  }
  const count = total.toLocaleString('en-US');
  if (capped)
    return `More than ${count} items match “${q}”${among}; the best of the first ${count} are shown. Add words to narrow the search.`;
  return `${count} ${total === 1 ? 'item matches' : 'items match'} “${q}”${among}${withdrawn ? ', withdrawn ones included' : ''}.`;
}

/**
 * `/desk/catalogue`: librarians search the whole catalogue, withdrawn items too when asked, open
 * an item to edit it, its copies and its history, or add a new one.
 */
export function DeskCataloguePage() {
  useDocumentTitle('Catalogue');
  const params = useCatalogueParams();
  const { search } = useLocation();
  const [draft, setDraft] = useState(params.q);
  const [shownQuery, setShownQuery] = useState(params.q);
  const ids = { q: useId(), type: useId(), withdrawn: useId(), hint: useId() };
  // The box follows the URL when it changes from outside (Back, a link), not while typing.
  if (shownQuery !== params.q) {
    setShownQuery(params.q);
    setDraft(params.q);
  }
  // The tick shows at once; the address (and so the search) follows a moment later.
  const [withdrawnTicked, setWithdrawnTicked] = useState(params.withdrawn);
  const [shownWithdrawn, setShownWithdrawn] = useState(params.withdrawn);
  if (shownWithdrawn !== params.withdrawn) {
    setShownWithdrawn(params.withdrawn);
    setWithdrawnTicked(params.withdrawn);
  }
  const searching = params.q !== '';
  const results = useCatalogueSearch(
    {
      q: params.q,
      type: params.type,
      withdrawn: params.withdrawn,
      page: params.page,
      pageSize: PAGE_SIZE,
    },
    searching,
  );
  const pageCount = results.data ? Math.max(1, Math.ceil(results.data.total / PAGE_SIZE)) : 1;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    params.update({ q: draft.trim() });
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Catalogue"
        lead="Find any item in the catalogue, withdrawn ones too, to edit its details, manage its copies and read its history."
        actions={
          <ButtonLink to={ROUTES.deskCatalogueNew} state={{ search } satisfies CatalogueState}>
            Add an item
          </ButtonLink>
        }
      />
      <SearchByMeaningLine />
      <form role="search" className={styles.searchForm} onSubmit={onSubmit}>
        <div className={`${formStyles.field} ${styles.searchWords}`}>
          <label htmlFor={ids.q} className={formStyles.label}>
            Search the catalogue
          </label>
          <input
            id={ids.q}
            type="search"
            className={formStyles.input}
            value={draft}
            maxLength={200}
            aria-describedby={ids.hint}
            onChange={(event) => setDraft(event.target.value)}
          />
          <span id={ids.hint} className={formStyles.hint}>
            Title, author, subject or ISBN.
          </span>
        </div>
        <div className={formStyles.field}>
          <label htmlFor={ids.type} className={formStyles.label}>
            Type
          </label>
          <select
            id={ids.type}
            className={formStyles.input}
            value={params.type ?? ''}
            onChange={(event) => params.update({ type: event.target.value })}
          >
            <option value="">All types</option>
            {ITEM_TYPES.map((type) => (
              <option key={type} value={type}>
                {ITEM_TYPE_LABELS[type]}
              </option>
            ))}
          </select>
        </div>
        <div className={`${formStyles.check} ${styles.withdrawnToggle}`}>
          <input
            id={ids.withdrawn}
            type="checkbox"
            checked={withdrawnTicked}
            onChange={(event) => {
              setWithdrawnTicked(event.target.checked);
              params.update({ withdrawn: event.target.checked ? '1' : null });
            }}
          />
          <label htmlFor={ids.withdrawn}>Show withdrawn items</label>
        </div>
        <Button type="submit" className={styles.searchButton}>
          Search
        </Button>
      </form>

      <section aria-label="Search results" className={styles.results}>
        {!searching ? (
          <p className={styles.muted}>
            Type a title, author, subject or ISBN and press Search. The type and withdrawn filters
            apply to the search as soon as you change them.
          </p>
        ) : results.isPending ? (
          <p role="status">Searching…</p>
        ) : results.isError ? (
          <p role="alert">The search failed: {results.error.message}</p>
        ) : (
          <>
            <p role="status" className={styles.muted}>
              {resultsText(results.data.total, results.data.totalCapped === true, params)}
            </p>
            {results.data.suggestion ? (
              <p>
                Did you mean{' '}
                <button
                  type="button"
                  className={styles.linkButton}
                  onClick={() => params.update({ q: results.data.suggestion ?? '' })}
                >
                  {results.data.suggestion}
                </button>
                ?
              </p>
            ) : null}
            <ul className={styles.resultList}>
              {results.data.items
                // Outside sources never answer a librarian's withdrawn search, but a plain one
                // may list them: they are not ours to edit.
                .filter((item) => !item.external)
                .map((item) => (
                  <ResultRow key={item.id} item={item} search={search} />
                ))}
            </ul>
            <Pager
              page={Math.min(params.page, pageCount)}
              count={pageCount}
              onChange={(page) => params.update({ page: page === 1 ? null : String(page) })}
              label="Result pages"
            />
          </>
        )}
      </section>
      <ImportSection />
    </div>
  );
}
