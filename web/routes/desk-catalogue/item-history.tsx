import { COPY_STATUS_LABELS, type CopyStatus } from '#contract/http/copies.ts';
import type { ItemType } from '#contract/http/catalogue.ts';
import type { ItemChange } from '#contract/http/items.ts';
import { useItemHistory } from '../../api/items.ts';
import { formatDateTime } from '../../components/records/format.ts';
import styles from './desk-catalogue.module.css';
import { FIELD_LABELS, ITEM_TYPE_LABELS } from './labels.ts';

/** Longest value a history line quotes; a long description is cut. */
const QUOTE_MAX = 80;

/** A recorded value in words: lists joined, kinds and statuses named, long text cut. */
function shown(field: string, value: unknown): string {
  if (Array.isArray(value)) return value.join(', ');
  if (field === 'type' && typeof value === 'string')
    return ITEM_TYPE_LABELS[value as ItemType] ?? value;
  if (field === 'status' && typeof value === 'string')
    return COPY_STATUS_LABELS[value as CopyStatus] ?? value;
  const text = value === null || value === undefined ? '' : String(value);
  return text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX - 1)}…` : text;
}

/** One field's change as a sentence: set, cleared, or changed from one value to another. */
export function describeFieldChange(field: string, from: unknown, to: unknown): string {
  const label = FIELD_LABELS[field] ?? field;
  const before = shown(field, from);
  const after = shown(field, to);
  if (before === '') return `${label} set to “${after}”`;
  if (after === '') return `${label} cleared (was “${before}”)`;
  return `${label} changed from “${before}” to “${after}”`;
}

/** What a recorded change did, as a heading, and its details, one line each. */
export function describeChange(change: ItemChange): { summary: string; details: string[] } {
  const fields = Object.entries(change.changes);
  const details = (skip: readonly string[] = []) =>
    fields
      // A field recorded empty on both sides (no authors when the item was added) says nothing.
      .filter(
        ([field, { from, to }]) =>
          !skip.includes(field) && shown(field, from) + shown(field, to) !== '',
      )
      .map(([field, { from, to }]) => describeFieldChange(field, from, to));
  switch (change.action) {
    case 'created':
      return { summary: 'Added the item to the catalogue', details: details() };
    case 'edited':
      return { summary: 'Edited the item', details: details() };
    case 'withdrawn':
      return { summary: 'Withdrew the item: hidden from everyone but librarians', details: [] };
    case 'restored':
      return { summary: 'Restored the item: everyone can find it again', details: [] };
    case 'copy_added': {
      const barcode = shown('barcode', change.changes.barcode?.to);
      return {
        summary: `Added copy ${barcode}`,
        details: fields
          .filter(([field, { to }]) => field !== 'barcode' && shown(field, to) !== '')
          .map(([field, { to }]) => `${FIELD_LABELS[field] ?? field}: ${shown(field, to)}`),
      };
    }
    case 'copy_changed': {
      const copy = change.changes.copy;
      return {
        summary: `Changed copy ${shown('barcode', copy?.from)}`,
        details: details(['copy']),
      };
    }
  }
}

/** Who changed the item, when, and what, newest first. */
export function ItemHistory({ itemId }: { itemId: string }) {
  const history = useItemHistory(itemId);

  return (
    <section className={styles.section} aria-labelledby="history-title">
      <h2 id="history-title" className={styles.sectionTitle}>
        History
      </h2>
      {history.isPending ? (
        <p role="status">Loading the history…</p>
      ) : history.isError ? (
        <p role="alert">The history could not be loaded: {history.error.message}</p>
      ) : history.data.length === 0 ? (
        <p className={styles.muted}>
          No changes recorded yet. Items imported or added before the history began have none.
        </p>
      ) : (
        <ol className={styles.history}>
          {history.data.map((change) => {
            const { summary, details } = describeChange(change);
            return (
              <li key={change.id} className={styles.historyEntry}>
                <p className={styles.historySummary}>{summary}</p>
                <p className={styles.muted}>
                  {change.by.name} · <time dateTime={change.at}>{formatDateTime(change.at)}</time>
                </p>
                {details.length > 0 ? (
                  <ul className={styles.historyDetails}>
                    {details.map((detail) => (
                      <li key={detail}>{detail}</li>
                    ))}
                  </ul>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
