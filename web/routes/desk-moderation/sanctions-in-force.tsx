import { useId, useState } from 'react';
import { MODERATION_REASON_MAX, type ModerationSanction } from '#contract/http/moderation.ts';
import { useEndSanction } from '../../api/moderation.ts';
import { FieldFrame, FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './desk-moderation.module.css';

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** "Muted in “Room”", "Muted everywhere", "Removed from “Room”". */
export function sanctionWhat(sanction: ModerationSanction): string {
  if (sanction.kind === 'remove') return `Removed from “${sanction.roomName ?? ''}”`;
  return sanction.roomName === null ? 'Muted everywhere' : `Muted in “${sanction.roomName}”`;
}

function SanctionItem({ sanction }: { sanction: ModerationSanction }) {
  const id = useId();
  const end = useEndSanction();
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const label = sanction.kind === 'remove' ? 'End the removal now' : 'End the mute now';
  const submit = () => {
    if (!reason.trim()) {
      setError('Please give a reason: the person affected reads it.');
      return;
    }
    setError('');
    end.mutate({ id: sanction.id, reason }, { onError: (failure) => setError(failure.message) });
  };
  return (
    <li className={styles.item} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {sanction.person}: {sanctionWhat(sanction)}
      </h3>
      <p className={styles.facts}>
        Until {timeFormat.format(new Date(sanction.endsAt))}. Reason: {sanction.reason}
      </p>
      <div className={styles.actions}>
        <FieldFrame label="Why end it early (the person reads it)">
          {(control) => (
            <input
              {...control}
              className={formStyles.input}
              maxLength={MODERATION_REASON_MAX}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </FieldFrame>
        <Button variant="outline" onClick={submit} disabled={end.isPending}>
          {label}
        </Button>
      </div>
      <FormMessage>{error}</FormMessage>
    </li>
  );
}

/**
 * Mutes and removals in force (decision 044): a librarian may end one early, with a reason the
 * person reads; it is recorded in the history as a lift.
 */
export function SanctionsInForce({ sanctions }: { sanctions: ModerationSanction[] | undefined }) {
  return (
    <section className={styles.section} aria-labelledby="moderation-sanctions">
      <h2 id="moderation-sanctions">Mutes and removals in force</h2>
      {sanctions === undefined ? null : sanctions.length === 0 ? (
        <p>Nobody is muted or removed.</p>
      ) : (
        <ul className={styles.items}>
          {sanctions.map((sanction) => (
            <SanctionItem key={sanction.id} sanction={sanction} />
          ))}
        </ul>
      )}
    </section>
  );
}
