import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { checkOutRequestSchema, returnRequestSchema } from '#contract/http/loans.ts';
import { useCheckOut, useReturnCopy } from '../../api/loans.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { checkedOutText, refusalOfCopy, returnedText } from './circulation-text.ts';
import styles from './desk.module.css';

type Action = 'check_out' | 'return';

const ACTION_LABELS: Record<Action, string> = { check_out: 'Check out', return: 'Return' };

/**
 * "Check in or out": a barcode box with Check out (to the student of the e-mail, or to the one
 * reservation of the book) and Return. A scanner types the code and Enter, and Enter repeats the
 * last action used, so a pile of returns is a series of scans; the box empties after each and
 * keeps the focus. A refused code stays selected, so the next scan replaces it.
 */
export function CheckInOutPanel() {
  const checkOut = useCheckOut();
  const giveBack = useReturnCopy();
  const [barcode, setBarcode] = useState('');
  const [email, setEmail] = useState('');
  const [enterDoes, setEnterDoes] = useState<Action>('check_out');
  const [result, setResult] = useState<{ done: string; refused: string }>({
    done: '',
    refused: '',
  });
  const barcodeRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const refocus = (select: boolean) => {
    barcodeRef.current?.focus();
    if (select) barcodeRef.current?.select();
  };

  const refuse = (text: string) => {
    setResult({ done: '', refused: text });
    refocus(true);
  };

  const run = async (action: Action) => {
    setEnterDoes(action);
    const typedEmail = email.trim();
    const input =
      action === 'check_out'
        ? checkOutRequestSchema.safeParse({ barcode, email: typedEmail })
        : returnRequestSchema.safeParse({ barcode });
    if (!input.success) {
      refuse(input.error.issues.map((issue) => issue.message).join(' '));
      return;
    }
    const code = input.data.barcode;
    setResult({ done: '', refused: '' });
    try {
      if (action === 'check_out') {
        const loan = await checkOut.mutateAsync(
          typedEmail ? { barcode: code, email: typedEmail } : { barcode: code },
        );
        setResult({ done: checkedOutText(loan), refused: '' });
        // The next student gives their own address; one typed meanwhile stays.
        setEmail((current) => (current.trim() === typedEmail ? '' : current));
      } else {
        const loan = await giveBack.mutateAsync(code);
        setResult({ done: returnedText(loan), refused: '' });
      }
      // A code scanned while this one was on its way stays where it is.
      setBarcode((current) => (current.trim() === code ? '' : current));
      refocus(false);
    } catch (error) {
      refuse(refusalOfCopy(code, error));
    }
  };

  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void run(enterDoes);
  };

  return (
    <section className={styles.circulation} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        Check in or out
      </h2>
      <form
        className={styles.circulationForm}
        aria-labelledby={`${id}-title`}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void run(enterDoes);
        }}
      >
        <div className={formStyles.field}>
          <label htmlFor={`${id}-barcode`} className={formStyles.label}>
            Barcode
          </label>
          <input
            ref={barcodeRef}
            id={`${id}-barcode`}
            className={formStyles.input}
            value={barcode}
            onChange={(event) => setBarcode(event.target.value)}
            onKeyDown={onEnter}
            aria-describedby={`${id}-barcode-hint`}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
          />
          <span id={`${id}-barcode-hint`} className={formStyles.hint}>
            Scan the label or type the code. Enter does the last action used: now{' '}
            <strong>{ACTION_LABELS[enterDoes]}</strong>.
          </span>
        </div>
        <div className={formStyles.field}>
          <label htmlFor={`${id}-email`} className={formStyles.label}>
            Student e-mail <span className={formStyles.optional}>(optional)</span>
          </label>
          <input
            id={`${id}-email`}
            type="email"
            className={formStyles.input}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            onKeyDown={onEnter}
            aria-describedby={`${id}-email-hint`}
            autoComplete="off"
            maxLength={254}
          />
          <span id={`${id}-email-hint`} className={formStyles.hint}>
            For check-out only: whose reservation it is, or who borrows an unreserved copy.
          </span>
        </div>
        <div className={styles.circulationActions}>
          {/* Never disabled: a scanner's next code must go through while one is on its way. */}
          <Button onClick={() => void run('check_out')}>Check out</Button>
          <Button variant="outline" onClick={() => void run('return')}>
            Return
          </Button>
        </div>
      </form>
      <p role="status" className={result.done ? formStyles.info : styles.quiet}>
        {result.done}
      </p>
      <p role="alert" className={result.refused ? formStyles.alert : styles.quiet}>
        {result.refused}
      </p>
    </section>
  );
}
