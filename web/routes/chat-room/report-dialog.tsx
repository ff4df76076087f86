import { useId, useState } from 'react';
import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type Ack,
  type ChatMessage,
  type ReportReason,
} from '#contract/socket/chat.ts';
import { FieldFrame, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './chat-room.module.css';

/**
 * Reporting one message to the librarians (decision 040): a reason from the short list and an
 * optional note. The answer (received, or already reported) is shown in the dialog.
 */
export function ReportDialog({
  message,
  onReport,
  onClose,
}: {
  message: ChatMessage | null;
  onReport: (messageId: string, reason: ReportReason, text: string) => Promise<Ack>;
  onClose: () => void;
}) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [note, setNote] = useState('');
  const [answer, setAnswer] = useState<{ ok: boolean; message: string } | null>(null);
  const [sending, setSending] = useState(false);

  const close = () => {
    setReason('');
    setNote('');
    setAnswer(null);
    onClose();
  };

  const submit = async () => {
    if (!message) return;
    if (!reason) {
      setAnswer({ ok: false, message: 'Choose a reason for the report' });
      return;
    }
    setSending(true);
    const ack = await onReport(message.id, reason, note);
    setSending(false);
    setAnswer({ ok: ack.ok, message: ack.message ?? 'Thank you.' });
  };

  const done = answer?.ok === true;
  return (
    <Dialog
      open={message !== null}
      title="Report a message"
      onClose={close}
      actions={
        done ? (
          <Button onClick={close} data-autofocus>
            Close
          </Button>
        ) : (
          <>
            <Button variant="outline" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} disabled={sending}>
              {sending ? 'Sending…' : 'Send report'}
            </Button>
          </>
        )
      }
    >
      {message ? (
        <p>
          “{message.content}” by {message.sender}
        </p>
      ) : null}
      {done ? null : (
        <>
          <fieldset className={styles.choices}>
            <legend>Why are you reporting it?</legend>
            {REPORT_REASONS.map((value, index) => (
              <label key={value}>
                <input
                  type="radio"
                  name={`${id}-reason`}
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                  {...(index === 0 ? { 'data-autofocus': true } : {})}
                />{' '}
                {REPORT_REASON_LABELS[value]}
              </label>
            ))}
          </fieldset>
          <FieldFrame
            label="Anything to add (optional)"
            hint={`At most ${REPORT_NOTE_MAX} characters.`}
          >
            {(control) => (
              <textarea
                {...control}
                className={`${formStyles.input} ${formStyles.textarea}`}
                rows={3}
                maxLength={REPORT_NOTE_MAX}
                value={note}
                onChange={(event) => setNote(event.target.value)}
              />
            )}
          </FieldFrame>
        </>
      )}
      {answer ? <p role={answer.ok ? 'status' : 'alert'}>{answer.message}</p> : null}
    </Dialog>
  );
}
