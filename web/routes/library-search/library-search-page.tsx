import {
  type FormEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CATEGORIES, type CatalogueItem, type CourseMaterial } from '#contract/http/catalogue.ts';
import { RESULT_TOPICS_SHOWN } from '#contract/limits.ts';
import { ROUTES } from '#contract/routes.ts';
import { useCatalogueSearch, useCourseMaterials } from '../../api/catalogue.ts';
import { countMaterialOpened } from '../../api/insights.ts';
import { ItemCard, ItemCardBadge } from '../../components/catalogue/item-card.tsx';
import { Pager } from '../../components/catalogue/pager.tsx';
import { SearchSuggest } from '../../components/catalogue/search-suggest.tsx';
import { ReserveCopyLink, shelfPlaces, shelfText } from '../../components/catalogue/shelf.tsx';
import { formStyles } from '../../components/forms/fields.tsx';
import { webAddress } from '../../components/links/web-address.ts';
import { ShelfControls } from '../../components/shelf/shelf-controls.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { BookDetail } from './book-detail.tsx';
import styles from './library.module.css';
import {
  activeFilterCount,
  FiltersToggle,
  SearchFacets,
  SortSelect,
  sortFrom,
  type FacetChanges,
} from './search-facets.tsx';

const TABS = [
  { id: 'books', label: 'Books', type: 'book' },
  { id: 'research', label: 'Research Papers', type: 'paper' },
  { id: 'courses', label: 'Course Materials', type: 'course' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const PAGE_SIZE = 12;

/** The search state lives in the URL, so a search can be shared and survives a reload. */
function useLibraryParams() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: TabId = TABS.some((candidate) => candidate.id === tabParam)
    ? (tabParam as TabId)
    : 'books';
  const state = {
    tab,
    q: params.get('q') ?? '',
    author: params.get('author') ?? '',
    year: params.get('year') ?? '',
    category: params.get('category') ?? '',
    subject: params.get('subject') ?? '',
    yearFrom: params.get('yearFrom') ?? '',
    yearTo: params.get('yearTo') ?? '',
    available: params.get('available') === 'true',
    sort: sortFrom(params.get('sort')),
    exact: params.get('exact') === 'true',
    // The results' page; while an item is open, the page of its book.
    page: Math.max(1, Number(params.get('page')) || 1),
    item: params.get('item'),
    // The results' page kept while an item is open, for "Back to results".
    resultsPage: params.get('resultsPage'),
  };
  const update = (
    changes: Partial<Record<keyof typeof state, string | number | null>> | FacetChanges,
    options: { replace?: boolean } = {},
  ) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '' || value === undefined) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next, options);
  };
  /** Opens an item at its first page, keeping the results' page for the way back. */
  const openItem = (item: string) =>
    update({
      item,
      page: null,
      resultsPage: state.item ? state.resultsPage : state.page > 1 ? state.page : null,
    });
  return { ...state, pageNamed: params.has('page'), update, openItem };
}

/** A result: author, year and the first three topics, then an ellipsis; the shelf and badges. */
function ResultCard({ item, onOpen }: { item: CatalogueItem; onOpen: () => void }) {
  const topics = item.subjects.slice(0, RESULT_TOPICS_SHOWN).join(', ');
  const topicsLine = topics ? (
    <span className={styles.topics}>
      {topics}
      {item.subjects.length > RESULT_TOPICS_SHOWN ? '…' : ''}
    </span>
  ) : null;
  // Results from outside sources are not in our catalogue: they link out, to web pages only.
  if (item.external) {
    const url = webAddress(item.url);
    const from = <ItemCardBadge>From {item.external}</ItemCardBadge>;
    return url ? (
      <ItemCard item={item} className={styles.resultCard} href={url}>
        {topicsLine}
        {from}
      </ItemCard>
    ) : (
      <ItemCard item={item} className={styles.resultCard}>
        {topicsLine}
        {from}
      </ItemCard>
    );
  }
  return (
    <ItemCard item={item} className={styles.resultCard} onOpen={onOpen}>
      {topicsLine}
      {item.shelf ? (
        <span className={styles.shelf}>
          {shelfText(item.shelf)}
          {item.shelf.locations.length > 0 ? ` · ${shelfPlaces(item.shelf)}` : ''}
        </span>
      ) : null}
      {item.hasContent ? <ItemCardBadge>Read online</ItemCardBadge> : null}
    </ItemCard>
  );
}

/** A course material: its details, 'Access Material', and a click anywhere else opens the reader. */
function CourseCard({ material }: { material: CourseMaterial }) {
  const navigate = useNavigate();
  // The link opens in a new tab as it is: only a web page's address may (never `javascript:`).
  const link = webAddress(material.driveLink);
  const open = () => {
    const state = { driveLink: link, itemId: material._id, title: material.title };
    if (!link) return;
    // Counted for the library's insights and its author's home; never linked to the person.
    countMaterialOpened(material._id);
    void navigate(ROUTES.reader, { state });
  };
  return (
    <div
      className={styles.courseCard}
      onClick={(event) => {
        if (!(event.target as HTMLElement).closest('a')) open();
      }}
    >
      <span className={styles.cardTitle}>{material.title}</span>
      <span className={styles.meta}>By {material.author || 'Unknown author'}</span>
      <span className={styles.meta}>Published: {material.publishedDate || 'Unknown'}</span>
      {material.instituteName ? (
        <span className={styles.meta}>Institution: {material.instituteName}</span>
      ) : null}
      {material.genre ? <span className={styles.badge}>{material.genre}</span> : null}
      {link ? (
        <span className={formStyles.actions}>
          <a href={link} target="_blank" rel="noopener noreferrer">
            Access Material<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <button type="button" className={styles.linkButton} onClick={open}>
            Open in reader
          </button>
        </span>
      ) : null}
      <ShelfControls itemId={material._id} title={material.title} />
    </div>
  );
}

function CourseMaterials() {
  const { data, isPending, isError } = useCourseMaterials();
  if (isPending) return <p role="status">Loading…</p>;
  if (isError) return <p role="alert">There was an error fetching course materials.</p>;
  if (data.length === 0) return <p className={styles.status}>No course materials available.</p>;
  return (
    <ul className={styles.results}>
      {data.map((material) => (
        <li key={material._id}>
          <CourseCard material={material} />
        </li>
      ))}
    </ul>
  );
}

/** The URL's search fields as one key: the sidebar starts over when it changes. */
const fieldsKey = (fields: { q: string; author: string; year: string; category: string }) =>
  [fields.q, fields.author, fields.year, fields.category].join('\u0000');

/** The keyword search, filters and side links; applies them to the URL on Search. */
function SearchSidebar({
  params,
  coursesTab,
  filters,
  keywordsFocusRef,
}: {
  params: ReturnType<typeof useLibraryParams>;
  coursesTab: boolean;
  /**
   * Set when a search run from the keywords box starts the sidebar over: the new box takes the
   * focus, so a keyboard user goes on typing where they were instead of at the page's start.
   */
  keywordsFocusRef: RefObject<boolean>;
  /** The Filters panel of narrow screens (open or folded) and the facets it holds. */
  filters: { open: boolean; onToggle: () => void; facets: ReactNode };
}) {
  const [draft, setDraft] = useState({
    q: params.q,
    author: params.author,
    year: params.year,
    category: params.category,
  });
  const ids = {
    q: useId(),
    author: useId(),
    year: useId(),
    category: useId(),
    fields: useId(),
    facets: useId(),
  };
  const keywords = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!keywordsFocusRef.current) return;
    keywordsFocusRef.current = false;
    keywords.current?.focus();
  }, [keywordsFocusRef]);
  /** Whether running `next` from the box starts the sidebar over, the box keeping the focus. */
  const keepFocus = (next: { q: string; author: string; year: string; category: string }) => {
    keywordsFocusRef.current =
      document.activeElement === keywords.current && fieldsKey(next) !== fieldsKey(params);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    keepFocus({ ...draft, q: draft.q.trim() });
    params.update({ ...draft, q: draft.q.trim(), page: null, item: null, exact: null });
  };
  return (
    <aside className={styles.sidebar} aria-labelledby="library-search-title">
      <h1 id="library-search-title" className={formStyles.title}>
        Library search
      </h1>
      <form role="search" className={formStyles.form} onSubmit={submit}>
        <div className={formStyles.field}>
          <label htmlFor={ids.q} className={formStyles.label}>
            Keywords
          </label>
          <SearchSuggest
            id={ids.q}
            className={formStyles.input}
            value={draft.q}
            maxLength={200}
            placeholder="Title, author or subject"
            onValueChange={(q) => setDraft({ ...draft, q })}
            onOpenItem={(item) => params.openItem(item)}
            inputRef={keywords}
            onAuthor={(author) => {
              setDraft({ ...draft, q: '', author });
              keepFocus({ ...params, q: '', author });
              params.update({ q: null, author, page: null, item: null });
            }}
          />
        </div>
        <FiltersToggle
          open={filters.open}
          controls={filters.facets ? `${ids.fields} ${ids.facets}` : ids.fields}
          active={activeFilterCount(params)}
          onToggle={filters.onToggle}
        />
        <div id={ids.fields} className={styles.foldable} data-open={filters.open}>
          <h2>Filters</h2>
          <div className={formStyles.field}>
            <label htmlFor={ids.author} className={formStyles.label}>
              Author
            </label>
            <input
              id={ids.author}
              className={formStyles.input}
              value={draft.author}
              maxLength={100}
              onChange={(event) => setDraft({ ...draft, author: event.target.value })}
            />
          </div>
          <div className={formStyles.field}>
            <label htmlFor={ids.year} className={formStyles.label}>
              Publication year
            </label>
            <input
              id={ids.year}
              className={formStyles.input}
              inputMode="numeric"
              pattern="-?[0-9]{1,4}"
              value={draft.year}
              onChange={(event) =>
                setDraft({
                  ...draft,
                  year: event.target.value.replace(/[^\d-]/g, '').slice(0, 5),
                })
              }
            />
          </div>
          <div className={formStyles.field}>
            <label htmlFor={ids.category} className={formStyles.label}>
              Category
            </label>
            <select
              id={ids.category}
              className={formStyles.input}
              value={draft.category}
              onChange={(event) => setDraft({ ...draft, category: event.target.value })}
            >
              <option value="">All Categories</option>
              {CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </select>
          </div>
        </div>
        <Button type="submit" disabled={coursesTab}>
          Search
        </Button>
      </form>
      {filters.facets ? (
        <div id={ids.facets} className={styles.foldable} data-open={filters.open}>
          {filters.facets}
        </div>
      ) : null}
      <div className={styles.sideLinks}>
        <ButtonLink to={ROUTES.resourceRequest} variant="outline">
          Request a Book
        </ButtonLink>
        <ButtonLink to={ROUTES.reservation} variant="outline">
          Offline Book Service
        </ButtonLink>
      </div>
    </aside>
  );
}

/** `/userprofile/openlibrary`: search books and research papers, browse course materials, read. */
export function LibrarySearchPage() {
  useDocumentTitle('Library search');
  const params = useLibraryParams();
  const tab = TABS.find((candidate) => candidate.id === params.tab)!;
  const searching =
    params.q !== '' ||
    params.author !== '' ||
    params.year !== '' ||
    params.category !== '' ||
    activeFilterCount(params) > 0;
  const enabled = tab.id !== 'courses' && (searching || tab.id === 'books');
  // Narrow screens only: the filters and facets fold away above the results until asked for.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const keywordsFocusRef = useRef(false);
  const results = useCatalogueSearch(
    {
      q: params.q,
      type: tab.type,
      author: params.author,
      year: params.year,
      category: params.category,
      yearFrom: params.yearFrom,
      yearTo: params.yearTo,
      subject: params.subject,
      available: params.available,
      sort: params.sort === 'relevance' ? undefined : params.sort,
      exact: params.exact,
      page: params.page,
      pageSize: PAGE_SIZE,
      featured: !searching,
    },
    enabled,
  );

  if (params.item) {
    return (
      <div className={`container ${styles.detailPage}`}>
        <h1 className="visually-hidden">Library search</h1>
        {/* Keyed by item: a related item opened from "More like this" starts at its first page. */}
        <BookDetail
          key={params.item}
          id={params.item}
          onBack={() => params.update({ item: null, page: params.resultsPage, resultsPage: null })}
          page={params.pageNamed ? params.page : null}
          onPageChange={(page, options) => params.update({ page }, options)}
        />
      </div>
    );
  }

  const pageCount = results.data ? Math.max(1, Math.ceil(results.data.total / PAGE_SIZE)) : 1;

  return (
    <div className="container">
      <div className={styles.layout}>
        {/* Keyed by the URL's search: its fields start over when the URL changes (back, a shared link). */}
        <SearchSidebar
          key={fieldsKey(params)}
          params={params}
          keywordsFocusRef={keywordsFocusRef}
          coursesTab={tab.id === 'courses'}
          filters={{
            open: filtersOpen,
            onToggle: () => setFiltersOpen(!filtersOpen),
            facets:
              searching && tab.id !== 'courses' ? (
                <SearchFacets
                  counts={results.data?.facetCounts}
                  state={params}
                  showAvailability={tab.type === 'book'}
                  onChange={(changes) => params.update({ ...changes, page: null })}
                />
              ) : null,
          }}
        />

        <section aria-label="Results">
          <div role="tablist" aria-label="What to search" className={styles.tabs}>
            {TABS.map((candidate) => (
              <button
                key={candidate.id}
                type="button"
                role="tab"
                id={`tab-${candidate.id}`}
                aria-selected={candidate.id === tab.id}
                aria-controls="library-panel"
                className={styles.tab}
                onClick={() =>
                  params.update({ tab: candidate.id === 'books' ? null : candidate.id, page: null })
                }
              >
                {candidate.label}
                {searching && candidate.type !== 'course' && results.data ? (
                  <span className={styles.tabCount}>
                    {results.data.facets.type[candidate.type].toLocaleString('en-US')}
                  </span>
                ) : null}
              </button>
            ))}
          </div>
          <div id="library-panel" role="tabpanel" aria-labelledby={`tab-${tab.id}`}>
            {tab.id === 'courses' ? (
              <CourseMaterials />
            ) : !enabled ? (
              <p className={styles.status}>
                Search by title, author or subject to find research papers.
              </p>
            ) : results.isPending ? (
              <p role="status">Loading…</p>
            ) : results.isError ? (
              <p role="alert">There was an error fetching the data.</p>
            ) : (
              <>
                {results.data.notes?.map((note) => (
                  <p key={note} className={styles.status}>
                    {note}
                  </p>
                ))}
                {results.data.correctedQuery ? (
                  <p className={styles.suggestion}>
                    Showing results for{' '}
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() =>
                        params.update({
                          q: results.data.correctedQuery ?? '',
                          page: null,
                          exact: null,
                        })
                      }
                    >
                      {results.data.correctedQuery}
                    </button>
                    . Search instead for{' '}
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() => params.update({ exact: 'true', page: null })}
                    >
                      {params.q}
                    </button>
                  </p>
                ) : null}
                {results.data.suggestion ? (
                  <p className={styles.suggestion}>
                    Did you mean{' '}
                    <button
                      type="button"
                      className={styles.linkButton}
                      onClick={() =>
                        params.update({ q: results.data.suggestion ?? '', page: null, exact: null })
                      }
                    >
                      {results.data.suggestion}
                    </button>
                    ?
                  </p>
                ) : null}
                {results.data.partialMatch || results.data.byMeaning ? (
                  <p className={styles.status}>
                    {results.data.partialMatch
                      ? results.data.byMeaning
                        ? 'No item has every word you searched for: these have most of them, or are about what you described.'
                        : 'No item has every word you searched for: these have most of them.'
                      : 'Some results are about what you described without using your words.'}
                  </p>
                ) : null}
                <div className={styles.resultsBar}>
                  <p className={styles.status} role="status">
                    {results.data.total === 0
                      ? 'No results found. Try adjusting your search or filters.'
                      : searching
                        ? results.data.totalCapped
                          ? `More than ${results.data.total.toLocaleString('en-US')} results; the best of the first ${results.data.total.toLocaleString('en-US')} found are shown`
                          : `${results.data.total.toLocaleString('en-US')} result${results.data.total === 1 ? '' : 's'}`
                        : 'Books from the library’s collection'}
                  </p>
                  {searching && results.data.total > 1 ? (
                    <SortSelect
                      value={params.sort}
                      onChange={(sort) =>
                        params.update({ sort: sort === 'relevance' ? null : sort, page: null })
                      }
                    />
                  ) : null}
                </div>
                <ul className={styles.results}>
                  {results.data.items.map((item) => (
                    <li key={item.id} className={styles.resultItem}>
                      <ResultCard item={item} onOpen={() => params.openItem(item.id)} />
                      {item.shelf ? (
                        <ReserveCopyLink itemId={item.id} title={item.title} shelf={item.shelf} />
                      ) : null}
                    </li>
                  ))}
                </ul>
                <Pager
                  page={Math.min(params.page, pageCount)}
                  count={pageCount}
                  onChange={(page) => params.update({ page: page === 1 ? null : page })}
                  label="Result pages"
                />
              </>
            )}
          </div>
          <p className={styles.meta}>
            Can’t find it? <Link to={ROUTES.resourceRequest}>Ask the library to get it</Link>.
          </p>
        </section>
      </div>
    </div>
  );
}
