import type { HealthResponse } from '#contract/http/health.ts';
import { useHealth } from '../../api/health.ts';
import styles from './desk-catalogue.module.css';

const number = (value: number) => value.toLocaleString('en-US');

/**
 * How far search by meaning is, in one sentence for a librarian; undefined when the server does
 * not say (an older server, or its answer not here yet).
 */
export function searchByMeaningText(health: HealthResponse | undefined): string | undefined {
  const meaning = health?.searchByMeaning;
  if (!meaning) return undefined;
  if (!meaning.available) {
    const reason = meaning.reason ?? 'The server does not say why.';
    return `Search by meaning is off: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`;
  }
  if (meaning.embedded === undefined || meaning.total === undefined) return undefined;
  if (meaning.embedded >= meaning.total) {
    return `Search by meaning: all ${number(meaning.total)} items are ready.`;
  }
  return `Search by meaning: ${number(meaning.embedded)} of ${number(meaning.total)} items ready; the rest are being prepared.`;
}

/**
 * One line on the librarians' catalogue screen: how many items search by meaning can find yet
 * (new and changed ones are prepared in the background), or why it is off.
 */
export function SearchByMeaningLine() {
  const health = useHealth();
  const text = searchByMeaningText(health.data);
  if (!text) return null;
  return (
    <p role="status" className={styles.meaningLine}>
      {text}
    </p>
  );
}
