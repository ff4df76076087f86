import { useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { DeskLoan } from '#contract/http/loans.ts';
import { useDeskLoans, useDeskRenew, useReturnCopy } from '../../api/loans.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { dueText, loanBadge, renewalsText } from '../../components/records/loan-text.ts';
import loanStyles from '../../components/records/loans.module.css';
import { recordStyles, StatusBadge } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { refusalText, renewedText, returnedText } from './circulation-text.ts';
import { mailtoHref } from './desk-reservation.tsx';
import styles from './desk.module.css';

/** How long the filter waits for typing to pause before it asks the server. */
const FILTER_DEBOUNCE_MS = 300;

/** One copy out: who has it, the book and copy, when it is due, and Renew and Return. */
function DeskLoanItem({
  loan,
  onReturned,
}: {
  loan: DeskLoan;
  onReturned: (text: string) => void;
}) {
  const renew = useDeskRenew();
  const giveBack = useReturnCopy();
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');
  const saidRef = useRef<HTMLParagraphElement>(null);
  const badge = loanBadge(loan);
  const { borrower, book, copy } = loan;
  const busy = renew.isPending || giveBack.isPending;

  const onRenew = () => {
    if (busy) return;
    setSaid('');
    setFailure('');
    renew.mutate(loan.loanId, {
      onSuccess: (renewed) => {
        setSaid(renewedText(renewed));
        // The last renewal takes the button away with the list's refresh; the focus waits here.
        saidRef.current?.focus();
      },
      onError: (error) => setFailure(refusalText(error)),
    });
  };

  const onReturn = () => {
    if (busy) return;
    setSaid('');
    setFailure('');
    giveBack.mutate(copy.barcode, {
      onSuccess: (returned) => onReturned(returnedText(returned)),
      onError: (error) => setFailure(refusalText(error)),
    });
  };

  return (
    <li className={recordStyles.item}>
      <div className={recordStyles.itemHead}>
        <h3 className={recordStyles.itemTitle}>{book.title}</h3>
        <StatusBadge label={badge.label} tone={badge.tone} />
      </div>
      <p className={recordStyles.meta}>
        {book.author} · Copy {copy.barcode}
        {copy.location ? ` · ${copy.location}` : ''}
      </p>
      <p className={styles.borrower}>
        <span>
          Borrower: <strong>{borrower.name}</strong>
        </span>{' '}
        <a href={mailtoHref(borrower.email)}>{borrower.email}</a>
        {borrower.phoneNumber ? (
          <>
            {' · '}
            <a
              href={`tel:${borrower.phoneNumber.replace(/[^\d+]/g, '')}`}
              className={styles.nowrap}
            >
              {borrower.phoneNumber}
            </a>
          </>
        ) : null}
      </p>
      <p className={loan.overdue ? loanStyles.overdue : recordStyles.reason}>
        <time dateTime={loan.dueAt}>{dueText(loan)}</time>
      </p>
      <p className={recordStyles.meta}>
        {renewalsText(loan)}
        {loan.renewBlockedBecause ? ` · Cannot be renewed: ${loan.renewBlockedBecause}` : ''}
      </p>
      <div className={recordStyles.actions}>
        {loan.renewBlockedBecause ? null : (
          <Button variant="outline" onClick={onRenew} aria-disabled={busy || undefined}>
            {renew.isPending ? 'Renewing…' : 'Renew'}
            <span className="visually-hidden">
              : {book.title} for {borrower.name}
            </span>
          </Button>
        )}
        <Button onClick={onReturn} aria-disabled={busy || undefined}>
          {giveBack.isPending ? 'Returning…' : 'Return'}
          <span className="visually-hidden">
            : {book.title} from {borrower.name}
          </span>
        </Button>
      </div>
      <p ref={saidRef} tabIndex={-1} role="status" className={recordStyles.live}>
        {said}
      </p>
      <p role="alert" className={failure ? recordStyles.error : recordStyles.live}>
        {failure}
      </p>
    </li>
  );
}

/**
 * The desk's copies out, soonest due first: a filter by borrower, title or barcode, and a view
 * of the overdue ones alone (kept in the URL as `loans=overdue`, so it can be linked).
 */
export function DeskLoans() {
  const [params, setParams] = useSearchParams();
  const overdueOnly = params.get('loans') === 'overdue';
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(typed.trim(), FILTER_DEBOUNCE_MS);
  const loans = useDeskLoans({ overdue: overdueOnly, q });
  const [message, setMessage] = useState('');
  const messageRef = useRef<HTMLParagraphElement>(null);
  const id = useId();

  const onView = (overdue: boolean) => {
    const next = new URLSearchParams(params);
    if (overdue) next.set('loans', 'overdue');
    else next.delete('loans');
    setParams(next, { replace: true });
    setMessage('');
  };

  const onReturned = (text: string) => {
    setMessage(text);
    // The returned copy's row goes with the refresh; the announcement takes the focus.
    requestAnimationFrame(() => messageRef.current?.focus());
  };

  const data = loans.data;
  const filtered = Boolean(q);
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        On loan
      </h2>
      <div className={styles.loanTools}>
        <div className={`${formStyles.field} ${styles.loanFilter}`}>
          <label htmlFor={`${id}-q`} className={formStyles.label}>
            Find a loan
          </label>
          <input
            id={`${id}-q`}
            type="search"
            className={formStyles.input}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            aria-describedby={`${id}-q-hint`}
            maxLength={200}
            autoComplete="off"
          />
          <span id={`${id}-q-hint`} className={formStyles.hint}>
            Borrower’s name or e-mail, title, or barcode.
          </span>
        </div>
        <div className={styles.toggles} role="group" aria-label="Which loans">
          <button
            type="button"
            className={styles.toggle}
            aria-pressed={!overdueOnly}
            onClick={() => onView(false)}
          >
            All loans
          </button>
          <button
            type="button"
            className={styles.toggle}
            aria-pressed={overdueOnly}
            onClick={() => onView(true)}
          >
            Overdue{data ? ` (${data.overdue})` : ''}
          </button>
        </div>
      </div>
      <p ref={messageRef} tabIndex={-1} role="status" className={styles.message}>
        {message}
      </p>
      {loans.isPending ? (
        <p role="status">Loading the loans…</p>
      ) : loans.isError ? (
        <FormMessage>The loans could not be loaded: {loans.error.message}</FormMessage>
      ) : (
        <>
          <p className={styles.count} aria-live="polite">
            {loanCount(loans.data.total, loans.data.overdue, overdueOnly, filtered)}
            {loans.data.payload.length < loans.data.total
              ? ` The first ${loans.data.payload.length} are shown; narrow the search to find others.`
              : ''}
          </p>
          {loans.data.payload.length === 0 ? null : (
            <ul className={`${recordStyles.list} ${styles.loanList}`}>
              {loans.data.payload.map((loan) => (
                <DeskLoanItem key={loan.loanId} loan={loan} onReturned={onReturned} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

/** "12 copies on loan, 3 of them overdue." as the view and filter have it. */
export function loanCount(
  total: number,
  overdue: number,
  overdueOnly: boolean,
  filtered: boolean,
): string {
  const matching = filtered ? ' matching the search' : '';
  if (overdueOnly) {
    return overdue === 0
      ? `No overdue loans${matching}.`
      : `${overdue} overdue ${overdue === 1 ? 'loan' : 'loans'}${matching}.`;
  }
  if (total === 0) return filtered ? 'No loans match the search.' : 'No copies are on loan.';
  const copies = `${total} ${total === 1 ? 'copy' : 'copies'} on loan${matching}`;
  return overdue === 0 ? `${copies}, none overdue.` : `${copies}, ${overdue} of them overdue.`;
}
