import { useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  RESOURCE_TYPE_LABELS,
  RESOURCE_TYPES,
  type RequestStatus,
  type ResourceType,
} from '#contract/http/requests.ts';
import { type RequestListFilters, useRequestList } from '../../api/requests.ts';
import { formStyles, SelectField } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { formatDate } from '../../components/records/format.ts';
import { REQUEST_STATUS_TONES, StatusBadge } from '../../components/records/status-badge.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { RequestActions } from './request-actions.tsx';
import styles from './requests.module.css';

const SORTS = [
  { value: 'date', label: 'Newest first' },
  { value: 'support', label: 'Most supported' },
] as const;

function oneOf<T extends string>(values: readonly T[], value: string | null): T | '' {
  return values.includes(value as T) ? (value as T) : '';
}

/** The filters live in the URL, so a filtered view can be shared and survives a reload. */
export function filtersFromParams(params: URLSearchParams): RequestListFilters {
  return {
    status: oneOf<RequestStatus>(REQUEST_STATUSES, params.get('status')),
    type: oneOf<ResourceType>(RESOURCE_TYPES, params.get('type')),
    sort: params.get('sort') === 'support' ? 'support' : 'date',
  };
}

/**
 * Whether a request's title or description holds every word of `words` (any case): the `?q=`
 * filter, which library insights' "Show requests like this" opens with a search term.
 */
export function matchesWords(
  request: { title: string; description?: string | null },
  words: string,
): boolean {
  const text = `${request.title} ${request.description ?? ''}`.toLowerCase();
  return words
    .toLowerCase()
    .split(/\s+/u)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

/** A filter's labelled `<select>`, handing `onChange` the chosen value. */
function FilterSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
}) {
  return (
    <SelectField
      label={label}
      options={options}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** `/requests`: faculty and librarians review the resources people asked for and move them on. */
export function RequestsPage() {
  useDocumentTitle('Resource requests');
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const list = useRequestList(filters);
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);

  const setFilter = (key: keyof RequestListFilters, value: string) => {
    const next = new URLSearchParams(params);
    // The defaults stay out of the URL, so the plain address is the default view.
    if (value === '' || (key === 'sort' && value === 'date')) next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
    setMessage('');
  };
  const words = params.get('q') ?? '';
  const wordsId = useId();
  const setWords = (value: string) => {
    const next = new URLSearchParams(params);
    if (value.trim() === '') next.delete('q');
    else next.set('q', value);
    setParams(next, { replace: true });
  };

  const onChanged = (text: string) => {
    setMessage(text);
    // The row's buttons change under the person's focus; the announcement takes it instead.
    requestAnimationFrame(() => messageRef.current?.focus());
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Resource requests"
        lead="The books, journals, articles and course materials people have asked the library to get. Accept, order and make them available, or reject them with a reason the requester will see."
      />
      <fieldset className={styles.filters}>
        <legend>Filter and sort</legend>
        <FilterSelect
          label="Status"
          value={filters.status}
          options={[
            { value: '', label: 'All statuses' },
            ...REQUEST_STATUSES.map((status) => ({
              value: status,
              label: REQUEST_STATUS_LABELS[status],
            })),
          ]}
          onChange={(value) => setFilter('status', value)}
        />
        <FilterSelect
          label="Type"
          value={filters.type}
          options={[
            { value: '', label: 'All types' },
            ...RESOURCE_TYPES.map((type) => ({ value: type, label: RESOURCE_TYPE_LABELS[type] })),
          ]}
          onChange={(value) => setFilter('type', value)}
        />
        <FilterSelect
          label="Sort by"
          value={filters.sort}
          options={SORTS}
          onChange={(value) => setFilter('sort', value)}
        />
        <div className={formStyles.field}>
          <label htmlFor={wordsId} className={formStyles.label}>
            Words
          </label>
          <input
            id={wordsId}
            type="search"
            className={formStyles.input}
            value={words}
            onChange={(event) => setWords(event.target.value)}
          />
        </div>
      </fieldset>
      <p ref={messageRef} tabIndex={-1} role="status" className={styles.message}>
        {message}
      </p>
      <RequestsTable list={list} words={words} onChanged={onChanged} />
    </div>
  );
}

function RequestsTable({
  list,
  words,
  onChanged,
}: {
  list: ReturnType<typeof useRequestList>;
  words: string;
  onChanged: (text: string) => void;
}) {
  if (list.isPending) return <p role="status">Loading resource requests…</p>;
  if (list.isError)
    return <p role="alert">Failed to load resource requests: {list.error.message}</p>;
  const rows = list.data.filter((request) => matchesWords(request, words));
  if (rows.length === 0) return <p role="status">No resource requests found</p>;
  return (
    <div
      className={styles.scroller}
      role="region"
      aria-labelledby="requests-caption"
      // Focusable so keyboard users can scroll the table sideways on a narrow screen.
      tabIndex={0}
    >
      <table className={styles.table}>
        <caption id="requests-caption">
          {rows.length} resource request{rows.length === 1 ? '' : 's'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Requester</th>
            <th scope="col">Title</th>
            <th scope="col">Description</th>
            <th scope="col">Type</th>
            <th scope="col">Institution</th>
            <th scope="col">Date</th>
            <th scope="col" className={styles.number}>
              Supporters
            </th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((request) => (
            <tr key={request._id}>
              <td>{request.student}</td>
              <th scope="row">{request.title}</th>
              <td>
                {request.description ? (
                  request.description
                ) : (
                  <span className={styles.muted}>No description</span>
                )}
              </td>
              <td>{RESOURCE_TYPE_LABELS[request.resourceType]}</td>
              <td>{request.institutionName}</td>
              <td>
                <time dateTime={request.createdAt}>{formatDate(request.createdAt)}</time>
              </td>
              <td className={styles.number}>{request.supporters}</td>
              <td>
                <StatusBadge
                  label={REQUEST_STATUS_LABELS[request.status]}
                  tone={REQUEST_STATUS_TONES[request.status]}
                />
                {request.status === 'rejected' && request.statusReason ? (
                  <span className={styles.reason}>Reason: {request.statusReason}</span>
                ) : null}
              </td>
              <td>
                <RequestActions request={request} onChanged={onChanged} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
