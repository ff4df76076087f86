import { useState } from 'react';
import {
  ROOM_RULES_MAX,
  ROOM_WORDS_MAX,
  SLOW_MODE_MAX,
  SLOW_MODE_MIN,
  roomRulesSchema,
  type Ack,
  type RoomRules,
} from '#contract/socket/chat.ts';
import { FieldFrame, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './chat-room.module.css';

/** The rules in force, in words (shown on joining, and to the creator). */
export function rulesSummary(rules: RoomRules): string[] {
  const lines: string[] = [];
  if (rules.slowModeSeconds > 0)
    lines.push(`Slow mode: one message every ${rules.slowModeSeconds} seconds per person.`);
  if (rules.membersOnly) lines.push('Members only: only people who joined before may post.');
  if (rules.words.length > 0)
    lines.push(`This room does not allow ${rules.words.length} words of its own.`);
  return lines;
}

/** The room's description and rules, shown on joining until the person dismisses them. */
export function RulesPanel({ rules, onDismiss }: { rules: RoomRules; onDismiss: () => void }) {
  const lines = rulesSummary(rules);
  return (
    <section className={styles.rules} aria-labelledby="room-rules-title">
      <h2 id="room-rules-title">Room rules</h2>
      {rules.rules ? <p>{rules.rules}</p> : null}
      {lines.length > 0 ? (
        <ul>
          {lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      <div>
        <Button variant="outline" onClick={onDismiss}>
          Got it
        </Button>
      </div>
    </section>
  );
}

const NO_RULES: RoomRules = { slowModeSeconds: 0, words: [], membersOnly: false, rules: '' };

/**
 * The room's settings, for its creator and librarians: slow mode, the room's own words, members
 * only, and the rules text shown on joining. Checked with the contract's schema before sending.
 */
export function RoomSettingsDialog({
  open,
  current,
  onSave,
  onClose,
}: {
  open: boolean;
  current: RoomRules | undefined;
  onSave: (rules: RoomRules) => Promise<Ack>;
  onClose: () => void;
}) {
  const initial = current ?? NO_RULES;
  const [slow, setSlow] = useState(String(initial.slowModeSeconds));
  const [words, setWords] = useState(initial.words.join(', '));
  const [membersOnly, setMembersOnly] = useState(initial.membersOnly);
  const [rules, setRules] = useState(initial.rules);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const save = async () => {
    const parsed = roomRulesSchema.safeParse({
      slowModeSeconds: slow.trim() === '' ? 0 : Number(slow),
      words: words
        .split(/[,\n]/)
        .map((word) => word.trim())
        .filter(Boolean),
      membersOnly,
      rules,
    });
    if (!parsed.success) {
      setMessage({ ok: false, text: parsed.error.issues[0]?.message ?? 'Please check the rules.' });
      return;
    }
    const ack = await onSave(parsed.data);
    setMessage({ ok: ack.ok, text: ack.message ?? 'Saved.' });
  };

  return (
    <Dialog
      open={open}
      title="Room settings"
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => void save()}>Save rules</Button>
        </>
      }
    >
      <div className={styles.settings}>
        <FieldFrame
          label="Slow mode (seconds between messages per person)"
          hint={`0 turns it off; otherwise ${SLOW_MODE_MIN} to ${SLOW_MODE_MAX}.`}
        >
          {(control) => (
            <input
              {...control}
              className={formStyles.input}
              type="number"
              inputMode="numeric"
              min={0}
              max={SLOW_MODE_MAX}
              value={slow}
              onChange={(event) => setSlow(event.target.value)}
              data-autofocus
            />
          )}
        </FieldFrame>
        <FieldFrame
          label="Words this room does not allow"
          hint={`Separated by commas; at most ${ROOM_WORDS_MAX}. New messages with them are refused.`}
        >
          {(control) => (
            <textarea
              {...control}
              className={`${formStyles.input} ${formStyles.textarea}`}
              rows={2}
              value={words}
              onChange={(event) => setWords(event.target.value)}
            />
          )}
        </FieldFrame>
        <label>
          <input
            type="checkbox"
            checked={membersOnly}
            onChange={(event) => setMembersOnly(event.target.checked)}
          />{' '}
          Members only: from now on, only people who have already joined may post
        </label>
        <FieldFrame
          label="Description and rules, shown to people when they join"
          hint={`At most ${ROOM_RULES_MAX} characters.`}
        >
          {(control) => (
            <textarea
              {...control}
              className={`${formStyles.input} ${formStyles.textarea}`}
              rows={4}
              maxLength={ROOM_RULES_MAX}
              value={rules}
              onChange={(event) => setRules(event.target.value)}
            />
          )}
        </FieldFrame>
        {message ? <p role={message.ok ? 'status' : 'alert'}>{message.text}</p> : null}
      </div>
    </Dialog>
  );
}
