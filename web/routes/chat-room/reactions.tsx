import { useEffect, useRef } from 'react';
import {
  REACTION_EMOJI,
  REACTION_LABELS,
  type ReactionEmoji,
  type ReactionSummary,
} from '#contract/socket/chat.ts';
import styles from './threads.module.css';

/** "Ada, Alan and 3 others": who made a reaction, as its count and first names say. */
export function reactedBy(reaction: ReactionSummary): string {
  const names = [...reaction.names];
  const others = reaction.count - names.length;
  if (others > 0) names.push(`${others} ${others === 1 ? 'other' : 'others'}`);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * A message's reactions (decision 043): one button per emoji with its count, pressed when it is
 * this person's; its name says who reacted, and pressing it adds or takes back theirs.
 */
export function Reactions({
  reactions,
  disabled,
  onToggle,
}: {
  reactions: readonly ReactionSummary[] | undefined;
  disabled: boolean;
  onToggle: (emoji: ReactionEmoji) => void;
}) {
  if (!reactions || reactions.length === 0) return null;
  return (
    <ul className={styles.reactions} aria-label="Reactions">
      {reactions.map((reaction) => {
        const who = reactedBy(reaction);
        const label = REACTION_LABELS[reaction.emoji];
        return (
          <li key={reaction.emoji}>
            <button
              type="button"
              className={styles.reaction}
              aria-pressed={reaction.mine === true}
              aria-label={`${label}, ${reaction.count}: ${who}. ${reaction.mine ? 'Take back your reaction' : 'React with ' + label}`}
              title={`${reaction.emoji} ${who}`}
              disabled={disabled}
              onClick={() => onToggle(reaction.emoji)}
            >
              <span aria-hidden="true">{reaction.emoji}</span>
              <span aria-hidden="true">{reaction.count}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The six reactions to choose from, as a row of buttons that takes the focus when it opens;
 * Escape closes it (the caller returns the focus to the button that opened it).
 */
export function ReactionPicker({
  id,
  mine,
  onPick,
  onClose,
}: {
  id: string;
  /** The emoji this person already gave (pressed: choosing one takes it back). */
  mine: ReadonlySet<string>;
  onPick: (emoji: ReactionEmoji) => void;
  onClose: () => void;
}) {
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div
      id={id}
      role="group"
      aria-label="Choose a reaction"
      className={styles.picker}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      {REACTION_EMOJI.map((emoji, index) => (
        <button
          key={emoji}
          ref={index === 0 ? first : undefined}
          type="button"
          className={styles.pick}
          aria-pressed={mine.has(emoji)}
          aria-label={REACTION_LABELS[emoji]}
          title={REACTION_LABELS[emoji]}
          onClick={() => onPick(emoji)}
        >
          <span aria-hidden="true">{emoji}</span>
        </button>
      ))}
    </div>
  );
}
