import { useRef, useState } from 'react';
import type { LoanRecord } from '#contract/http/loans.ts';
import { ApiError } from '../../api/client.ts';
import { useMyLoans, useRenewMyLoan } from '../../api/loans.ts';
import { Button } from '../ui/button.tsx';
import { formatDate } from './format.ts';
import { dueText, loanBadge, renewalsText } from './loan-text.ts';
import loanStyles from './loans.module.css';
import { StatusBadge, recordStyles as styles } from './status-badge.tsx';

/** One loan of the person's: the book, when it is due, renewals, and Renew or why not. */
function LoanItem({ loan }: { loan: LoanRecord }) {
  const renew = useRenewMyLoan();
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');
  const saidRef = useRef<HTMLParagraphElement>(null);
  const badge = loanBadge(loan);
  const out = loan.status === 'on_loan';

  const onRenew = () => {
    setSaid('');
    setFailure('');
    renew.mutate(loan.loanId, {
      onSuccess: (renewed) => {
        setSaid(`Renewed: now due ${formatDate(renewed.dueAt)}.`);
        // The last renewal takes the button away with the list's refresh; the focus waits here.
        saidRef.current?.focus();
      },
      onError: (error) =>
        setFailure(
          error instanceof ApiError && error.fromServer
            ? `Not renewed: ${error.message}`
            : 'The server could not be reached. Please try again.',
        ),
    });
  };

  return (
    <li className={styles.item}>
      <div className={styles.itemHead}>
        <h3 className={styles.itemTitle}>{loan.book.title}</h3>
        <StatusBadge label={badge.label} tone={badge.tone} />
      </div>
      <p className={styles.meta}>
        {loan.book.author} · Copy {loan.copy.barcode}
        {loan.copy.location ? ` · ${loan.copy.location}` : ''}
      </p>
      <p className={loan.overdue ? loanStyles.overdue : styles.reason}>
        <time dateTime={loan.dueAt}>{dueText(loan)}</time>
        {loan.overdue ? ' Please bring it back to the library desk.' : null}
      </p>
      {out ? <p className={styles.meta}>{renewalsText(loan)}</p> : null}
      {out && loan.renewBlockedBecause ? (
        <p className={styles.reason}>Cannot be renewed: {loan.renewBlockedBecause}</p>
      ) : null}
      {out && !loan.renewBlockedBecause ? (
        <div className={styles.actions}>
          <Button
            variant="outline"
            aria-disabled={renew.isPending || undefined}
            onClick={() => {
              if (!renew.isPending) onRenew();
            }}
          >
            {renew.isPending ? 'Renewing…' : 'Renew'}
            <span className="visually-hidden"> {loan.book.title}</span>
          </Button>
        </div>
      ) : null}
      <p ref={saidRef} tabIndex={-1} role="status" className={styles.live}>
        {said}
      </p>
      <p role="alert" className={failure ? styles.error : styles.live}>
        {failure}
      </p>
    </li>
  );
}

/**
 * The signed-in person's loans on their home: those out, soonest due first; the returned ones
 * folded away below. The caller supplies the heading.
 */
export function MyLoans() {
  const loans = useMyLoans();
  if (loans.isPending) return <p role="status">Loading your loans…</p>;
  if (loans.isError) return <p role="alert">Your loans could not be loaded.</p>;
  const out = loans.data.filter((loan) => loan.status === 'on_loan');
  const returned = loans.data.filter((loan) => loan.status === 'returned');
  return (
    <>
      {out.length === 0 ? (
        <p className={styles.empty}>
          You have no books on loan. A reserved copy becomes a loan when you collect it at the desk.
        </p>
      ) : (
        <ul className={styles.list}>
          {out.map((loan) => (
            <LoanItem key={loan.loanId} loan={loan} />
          ))}
        </ul>
      )}
      {returned.length > 0 ? (
        <details className={loanStyles.folded}>
          <summary>
            Returned loans ({returned.length}
            {returned.length > 10 ? ', the last 10 shown' : ''})
          </summary>
          <ul className={styles.list}>
            {returned.slice(0, 10).map((loan) => (
              <LoanItem key={loan.loanId} loan={loan} />
            ))}
          </ul>
        </details>
      ) : null}
    </>
  );
}
