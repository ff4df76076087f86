import { useId } from 'react';
import {
  SEARCH_COUNT_LIMIT,
  SEARCH_SORTS,
  type FacetCounts,
  type SearchSort,
} from '#contract/http/catalogue.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import libraryStyles from './library.module.css';
import styles from './search-facets.module.css';

/** The facets as the URL holds them; empty strings mean "not chosen". */
export interface FacetState {
  subject: string;
  yearFrom: string;
  yearTo: string;
  available: boolean;
}

/** The URL changes a facet asks for (`null` removes a parameter). */
export type FacetChanges = Partial<Record<keyof FacetState, string | null>>;

const SORT_LABELS: Record<SearchSort, string> = {
  relevance: 'Relevance',
  year: 'Newest first',
  title: 'Title (A–Z)',
};

/** A sort from the URL, or relevance. */
export function sortFrom(value: string | null): SearchSort {
  return SEARCH_SORTS.find((sort) => sort === value) ?? 'relevance';
}

/** `1990s` for a decade, `1800–1899` for a wider range, `1813` for a single year. */
export function yearRangeLabel(from: number | string, to: number | string): string {
  const [start, end] = [Number(from), Number(to)];
  if (from === '' || Number.isNaN(start)) return `Up to ${to}`;
  if (to === '' || Number.isNaN(end)) return `From ${from}`;
  if (start === end) return String(start);
  if (start % 10 === 0 && end === start + 9) return `${start}s`;
  return `${start}–${end}`;
}

/**
 * How many filters narrow the search (the Filters button says so): author, year, category, and
 * the facets (a year range counts once).
 */
export function activeFilterCount(state: FacetState & Record<string, unknown>): number {
  const fields = ['author', 'year', 'category', 'subject'] as const;
  return (
    fields.filter((field) => typeof state[field] === 'string' && state[field] !== '').length +
    (state.yearFrom !== '' || state.yearTo !== '' ? 1 : 0) +
    (state.available ? 1 : 0)
  );
}

/** `12 results`, said after a facet's name. */
const countText = (count: number) => `${count.toLocaleString('en-US')}`;

function Count({ count }: { count: number }) {
  return (
    <span className={styles.count}>
      {countText(count)}
      <span className="visually-hidden"> {count === 1 ? 'result' : 'results'}</span>
    </span>
  );
}

/** One choice of a facet: pressed while it applies; pressing it again removes it. */
function Choice({
  label,
  count,
  pressed,
  onPress,
}: {
  label: string;
  count?: number;
  pressed: boolean;
  onPress: () => void;
}) {
  return (
    <li>
      <button type="button" className={styles.choice} aria-pressed={pressed} onClick={onPress}>
        <span className={styles.choiceLabel}>
          {/* More than colour says it applies; aria-pressed says so to screen readers. */}
          {pressed ? <span aria-hidden="true">✓ </span> : null}
          {label}
        </span>
        {count !== undefined ? <Count count={count} /> : null}
      </button>
    </li>
  );
}

/**
 * The facets beside the results: subjects, publication years and (for books) copies free now,
 * each with its count among the matches. A choice applies at once, through the URL.
 */
export function SearchFacets({
  id,
  counts,
  state,
  showAvailability,
  onChange,
}: {
  id?: string;
  counts: FacetCounts | undefined;
  state: FacetState;
  showAvailability: boolean;
  onChange: (changes: FacetChanges) => void;
}) {
  const ids = { heading: useId(), available: useId() };
  const subjects = counts?.subjects ?? [];
  const years = counts?.years ?? [];
  // A chosen subject or range stays in its list even when the counts no longer name it.
  const subjectChoices =
    state.subject && !subjects.some((subject) => subject.value === state.subject)
      ? [{ value: state.subject, count: undefined }, ...subjects]
      : subjects;
  const rangeChosen = state.yearFrom !== '' || state.yearTo !== '';
  const rangeListed = years.some(
    (range) => String(range.from) === state.yearFrom && String(range.to) === state.yearTo,
  );
  const anyChosen = state.subject !== '' || rangeChosen || state.available;

  return (
    <section id={id} className={styles.facets} aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>Refine results</h2>
      {counts?.capped ? (
        <p className={styles.note}>
          Counted among the first {SEARCH_COUNT_LIMIT.toLocaleString('en-US')} matches.
        </p>
      ) : null}
      {subjectChoices.length > 0 ? (
        <div className={styles.group}>
          <h3>Subject</h3>
          <ul className={styles.choices}>
            {subjectChoices.map((subject) => (
              <Choice
                key={subject.value}
                label={subject.value}
                count={subject.count}
                pressed={subject.value === state.subject}
                onPress={() =>
                  onChange({ subject: subject.value === state.subject ? null : subject.value })
                }
              />
            ))}
          </ul>
        </div>
      ) : null}
      {years.length > 0 || rangeChosen ? (
        <div className={styles.group}>
          <h3>Publication years</h3>
          <ul className={styles.choices}>
            {rangeChosen && !rangeListed ? (
              <Choice
                label={yearRangeLabel(state.yearFrom, state.yearTo)}
                pressed
                onPress={() => onChange({ yearFrom: null, yearTo: null })}
              />
            ) : null}
            {years.map((range) => {
              const pressed =
                String(range.from) === state.yearFrom && String(range.to) === state.yearTo;
              return (
                <Choice
                  key={range.from}
                  label={yearRangeLabel(range.from, range.to)}
                  count={range.count}
                  pressed={pressed}
                  onPress={() =>
                    onChange(
                      pressed
                        ? { yearFrom: null, yearTo: null }
                        : { yearFrom: String(range.from), yearTo: String(range.to) },
                    )
                  }
                />
              );
            })}
          </ul>
        </div>
      ) : null}
      {showAvailability ? (
        <div className={styles.group}>
          <h3>Availability</h3>
          <div className={`${formStyles.check} ${styles.check}`}>
            <input
              id={ids.available}
              type="checkbox"
              checked={state.available}
              onChange={(event) => onChange({ available: event.target.checked ? 'true' : null })}
            />
            <label htmlFor={ids.available}>
              Free to reserve now
              {counts ? <Count count={counts.available} /> : null}
            </label>
          </div>
        </div>
      ) : null}
      {anyChosen ? (
        <button
          type="button"
          className={`${libraryStyles.linkButton} ${styles.clear}`}
          onClick={() => onChange({ subject: null, yearFrom: null, yearTo: null, available: null })}
        >
          Clear subject, years and availability
        </button>
      ) : null}
    </section>
  );
}

/** The order of the results; a change applies at once. */
export function SortSelect({
  value,
  onChange,
}: {
  value: SearchSort;
  onChange: (sort: SearchSort) => void;
}) {
  const id = useId();
  return (
    <div className={styles.sort}>
      <label htmlFor={id}>Sort by</label>
      <select
        id={id}
        className={formStyles.input}
        value={value}
        onChange={(event) => onChange(sortFrom(event.target.value))}
      >
        {SEARCH_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The Filters button of narrow screens: it folds the filters and facets (`controls`, their ids)
 * away above the results, and says how many filters apply. Wide screens show them beside the
 * results without it.
 */
export function FiltersToggle({
  open,
  controls,
  active,
  onToggle,
}: {
  open: boolean;
  controls: string;
  active: number;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className={styles.toggle}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <span aria-hidden="true" className={styles.chevron} data-open={open} />
      Filters
      {active > 0 ? (
        <span className={styles.badge}>
          {active}
          <span className="visually-hidden"> active</span>
        </span>
      ) : null}
    </button>
  );
}
