import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { CHAT_USERNAME_MAX, type RoomMember } from '#contract/socket/chat.ts';
import styles from './attention.module.css';

/** Members the list shows at most. */
const SHOWN_MAX = 8;

/**
 * The `@` being typed at `caret` in `text`: where it is and the letters after it (no line break,
 * at most a username's length), or null. An `@` inside a word (an e-mail address) starts none.
 */
export function mentionQuery(text: string, caret: number): { at: number; query: string } | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1) return null;
  if (at > 0 && !/[\s([{'"‘“]/u.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (query.length > CHAT_USERNAME_MAX || /[\n\r]/u.test(query) || /^\s/u.test(query)) return null;
  return { at, query };
}

/**
 * The members whose name starts with `query` (then those holding it), ignoring case, without the
 * person typing, at most `SHOWN_MAX`.
 */
export function matchMembers(
  members: readonly RoomMember[],
  query: string,
  selfId: string,
): RoomMember[] {
  const needle = query.toLowerCase();
  const others = members.filter((member) => member.userId !== selfId);
  const starts = others.filter((member) => member.name.toLowerCase().startsWith(needle));
  const holds = others.filter(
    (member) =>
      !member.name.toLowerCase().startsWith(needle) && member.name.toLowerCase().includes(needle),
  );
  return [...starts, ...holds].slice(0, SHOWN_MAX);
}

/**
 * `@name` completion for a message box (decision 042). The box stays a text box (a `textarea`
 * may not take the combobox role), linked to the list by `aria-controls` and
 * `aria-activedescendant`, with `aria-autocomplete="list"`: ↑ ↓ move, Enter or Tab picks, Escape
 * closes; a click picks too. Members are asked for the first time an `@` is typed (`onNeed`).
 */
export function useMentionAutocomplete({
  value,
  onChange,
  members,
  onNeed,
  selfId,
}: {
  value: string;
  /** Sets the box's text (a pick replaces the `@letters` with `@Name `). */
  onChange: (text: string) => void;
  members: readonly RoomMember[] | null;
  onNeed: () => void;
  selfId: string;
}): {
  ref: RefObject<HTMLTextAreaElement | null>;
  inputProps: {
    'aria-autocomplete': 'list';
    'aria-controls'?: string;
    'aria-activedescendant'?: string;
    onSelect: () => void;
    onClick: () => void;
  };
  /** Handles the key when the list is open; true when it did (the box must not). */
  onKeyDown: (event: KeyboardEvent<HTMLTextAreaElement>) => boolean;
  /** Call from the box's onChange, after the text is set. */
  onInput: () => void;
  list: ReactNode;
} {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  /** The `@` whose list Escape closed: it stays closed until another `@`. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const token = mentionQuery(value, Math.min(caret, value.length));
  const options = token && members ? matchMembers(members, token.query, selfId) : [];
  const open = token !== null && token.at !== dismissed && options.length > 0;
  const current = Math.min(active, Math.max(0, options.length - 1));

  const typingMention = token !== null;
  useEffect(() => {
    if (typingMention) onNeed();
  }, [typingMention, onNeed]);

  const readCaret = () => {
    const box = ref.current;
    if (box) setCaret(box.selectionStart ?? box.value.length);
  };

  const pick = (member: RoomMember) => {
    if (!token) return;
    const end = token.at + 1 + token.query.length;
    const inserted = `@${member.name} `;
    const next = value.slice(0, token.at) + inserted + value.slice(end);
    onChange(next);
    const at = token.at + inserted.length;
    setCaret(at);
    setActive(0);
    // After React has put the new text in the box.
    requestAnimationFrame(() => {
      const box = ref.current;
      if (!box) return;
      box.focus();
      box.setSelectionRange(at, at);
    });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    switch (event.key) {
      case 'ArrowDown':
        setActive((current + 1) % options.length);
        break;
      case 'ArrowUp':
        setActive((current - 1 + options.length) % options.length);
        break;
      case 'Enter':
      case 'Tab':
        if (event.shiftKey) return false;
        pick(options[current]!);
        break;
      case 'Escape':
        setDismissed(token.at);
        break;
      default:
        return false;
    }
    event.preventDefault();
    return true;
  };

  const optionId = (index: number) => `${id}-option-${index}`;
  const popup = (
    <div className={styles.popupAnchor}>
      <ul id={`${id}-list`} role="listbox" aria-label="People to mention" className={styles.popup}>
        {options.map((member, index) => (
          <li
            key={member.userId}
            id={optionId(index)}
            role="option"
            aria-selected={index === current}
            className={styles.option}
            // Keeps the focus in the box, where typing goes on.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(member)}
          >
            @{member.name}
          </li>
        ))}
      </ul>
    </div>
  );
  const list = (
    <>
      {/* How many match, for people who cannot see the list open. */}
      <p className="visually-hidden" role="status">
        {open
          ? `${options.length} ${options.length === 1 ? 'person' : 'people'} to mention: up and down arrows choose, Enter picks.`
          : ''}
      </p>
      {open ? popup : null}
    </>
  );

  return {
    ref,
    inputProps: {
      'aria-autocomplete': 'list',
      ...(open
        ? { 'aria-controls': `${id}-list`, 'aria-activedescendant': optionId(current) }
        : {}),
      onSelect: readCaret,
      onClick: readCaret,
    },
    onKeyDown,
    onInput: () => {
      readCaret();
      setActive(0);
      const box = ref.current;
      if (box && dismissed !== null) {
        const typed = mentionQuery(box.value, box.selectionStart ?? box.value.length);
        if (typed?.at !== dismissed) setDismissed(null);
      }
    },
    list,
  };
}
