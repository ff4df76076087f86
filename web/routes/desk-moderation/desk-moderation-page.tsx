import { useId, useState } from 'react';
import {
  MODERATION_DURATION_LABELS,
  MODERATION_REASON_MAX,
  type ModerationActionRequest,
  type ModerationDuration,
  type ModerationQueueItem,
} from '#contract/http/moderation.ts';
import {
  REPORT_REASON_LABELS,
  type ChatMessage,
  type ReportReason,
} from '#contract/socket/chat.ts';
import { useModerate, useModerationQueue } from '../../api/moderation.ts';
import {
  FieldFrame,
  FormMessage,
  SelectField,
  formStyles,
} from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './desk-moderation.module.css';
import { SanctionsInForce } from './sanctions-in-force.tsx';

/** The choices of the action menu: what is done, and for a mute where. */
const CHOICES = [
  { value: 'dismiss', label: 'Dismiss the reports' },
  { value: 'hide', label: 'Hide the message' },
  { value: 'mute-room', label: 'Mute the sender in this room' },
  { value: 'mute-everywhere', label: 'Mute the sender everywhere' },
  { value: 'remove', label: 'Remove the sender from the room' },
] as const;
/** For a hidden message: restore it, or act on its sender still. */
const HIDDEN_CHOICES = [
  { value: 'restore', label: 'Restore the message' },
  ...CHOICES.filter((choice) => choice.value !== 'dismiss' && choice.value !== 'hide'),
] as const;
type Choice = (typeof CHOICES)[number]['value'] | 'restore';

const DURATIONS = (Object.keys(MODERATION_DURATION_LABELS) as ModerationDuration[]).map(
  (value) => ({ value, label: MODERATION_DURATION_LABELS[value] }),
);

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const when = (iso: string) => timeFormat.format(new Date(iso));

/** The request an action menu's choice makes. */
export function actionRequest(
  messageId: string,
  choice: Choice,
  reason: string,
  duration: ModerationDuration,
): ModerationActionRequest {
  switch (choice) {
    case 'mute-room':
      return { messageId, action: 'mute', scope: 'room', duration, reason };
    case 'mute-everywhere':
      return { messageId, action: 'mute', scope: 'everywhere', duration, reason };
    case 'remove':
      return { messageId, action: 'remove', duration, reason };
    default:
      return { messageId, action: choice, reason };
  }
}

function Line({ message, reported }: { message: ChatMessage; reported?: boolean }) {
  return (
    <li className={reported ? styles.reported : undefined}>
      <strong>{message.sender}</strong> ({when(message.time)}): {message.content}
      {message.hidden ? ' [hidden]' : ''}
    </li>
  );
}

/** One reported (or hidden) message: its context and the action form. */
function QueueCard({ item, restore }: { item: ModerationQueueItem; restore?: boolean }) {
  const id = useId();
  const moderate = useModerate();
  const [choice, setChoice] = useState<Choice>(restore ? 'restore' : 'dismiss');
  const [duration, setDuration] = useState<ModerationDuration>('10m');
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const needsDuration =
    choice === 'mute-room' || choice === 'mute-everywhere' || choice === 'remove';

  const apply = () => {
    if (!reason.trim()) {
      setError('Please give a reason: the person affected reads it.');
      return;
    }
    setError('');
    moderate.mutate(actionRequest(item.message.id, choice, reason, duration), {
      onError: (failure) => setError(failure.message),
    });
  };

  const reasons = Object.entries(item.reasons)
    .map(([key, count]) => `${REPORT_REASON_LABELS[key as ReportReason] ?? key} ${count}`)
    .join(', ');
  return (
    <li className={styles.item} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        {restore
          ? 'Hidden'
          : `${item.reporterCount} ${item.reporterCount === 1 ? 'report' : 'reports'}`}{' '}
        in “{item.roomName}”: {item.message.sender}
      </h3>
      <p className={styles.facts}>
        {restore
          ? `Hidden ${when(item.firstReportedAt)}`
          : `First reported ${when(item.firstReportedAt)}. Reasons: ${reasons}.`}
      </p>
      {item.notes.length > 0 ? (
        <ul className={styles.facts}>
          {item.notes.map((note, index) => (
            <li key={index}>Note: {note}</li>
          ))}
        </ul>
      ) : null}
      <ol className={styles.context} aria-label="The message with five before and after">
        {item.before.map((message) => (
          <Line key={message.id} message={message} />
        ))}
        <Line message={item.message} reported />
        {item.after.map((message) => (
          <Line key={message.id} message={message} />
        ))}
      </ol>
      <div className={styles.actions}>
        <SelectField
          label="Action"
          options={restore ? HIDDEN_CHOICES : CHOICES}
          value={choice}
          onChange={(event) => setChoice(event.target.value as Choice)}
        />
        {needsDuration ? (
          <SelectField
            label="For how long"
            options={DURATIONS}
            value={duration}
            onChange={(event) => setDuration(event.target.value as ModerationDuration)}
          />
        ) : null}
        <FieldFrame label="Reason (the person affected reads it)">
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
        <Button onClick={apply} disabled={moderate.isPending}>
          Apply
        </Button>
      </div>
      <FormMessage>{error}</FormMessage>
    </li>
  );
}

/**
 * `/desk/moderation`: the librarians' queue of reported chat messages (issue 26, decision 040),
 * each with five messages before and after, the reporter count and the room; an action with a
 * reason (and a length for a mute or a removal); hidden messages to restore; and the history of
 * every action. The queue is asked again every few seconds.
 */
export function DeskModerationPage() {
  useDocumentTitle('Moderation');
  const queue = useModerationQueue();
  const data = queue.data;
  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Moderation"
        lead="Messages members reported, with what was said around them. Every action is recorded with who did it and why, and the person affected is told."
      />
      {queue.error ? <FormMessage>{queue.error.message}</FormMessage> : null}
      <section className={styles.section} aria-labelledby="moderation-reports">
        <h2 id="moderation-reports">Reported messages</h2>
        {!data ? (
          <p>Loading…</p>
        ) : data.reports.length === 0 ? (
          <p>No open reports.</p>
        ) : (
          <ul className={styles.items}>
            {data.reports.map((item) => (
              <QueueCard key={item.message.id} item={item} />
            ))}
          </ul>
        )}
      </section>
      <section className={styles.section} aria-labelledby="moderation-hidden">
        <h2 id="moderation-hidden">Hidden messages</h2>
        {data && data.hidden.length === 0 ? <p>No hidden messages.</p> : null}
        {data && data.hidden.length > 0 ? (
          <ul className={styles.items}>
            {data.hidden.map((item) => (
              <QueueCard key={item.message.id} item={item} restore />
            ))}
          </ul>
        ) : null}
      </section>
      {data ? <SanctionsInForce sanctions={data.sanctions ?? []} /> : null}
      <section className={styles.section} aria-labelledby="moderation-history">
        <h2 id="moderation-history">History</h2>
        {data && data.history.length === 0 ? <p>No actions yet.</p> : null}
        {data && data.history.length > 0 ? (
          <div className={styles.tableWrap}>
            <table className={styles.history}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Person and room</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Until</th>
                </tr>
              </thead>
              <tbody>
                {data.history.map((action) => (
                  <tr key={action.id}>
                    <td>{when(action.createdAt)}</td>
                    <td>{action.actor}</td>
                    <td>
                      {action.action === 'lift' ? 'ended early' : action.action}
                      {action.scope === 'everywhere' ? ' (everywhere)' : ''}
                    </td>
                    <td>
                      {action.target} in “{action.roomName}”
                    </td>
                    <td>{action.reason}</td>
                    <td>{action.endsAt ? when(action.endsAt) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
    </div>
  );
}
