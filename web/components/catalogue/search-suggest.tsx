import {
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useId,
  useState,
} from 'react';
import { SUGGEST_QUERY_MIN, type Suggestion } from '#contract/http/suggestions.ts';
import { useSuggestions } from '../../api/suggestions.ts';
import styles from './search-suggest.module.css';

const TYPE_LABELS = { book: 'Book', paper: 'Paper', course: 'Course' } as const;

/** What the search box hands its screen when a suggestion is chosen. */
export interface SuggestHandlers {
  /** A title was chosen: open its item. */
  onOpenItem: (itemId: string) => void;
  /** An author was chosen: search by that author. */
  onAuthor: (name: string) => void;
}

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'role' | 'type' | 'onKeyDown' | 'onBlur'
>;

/**
 * A search box with as-you-type suggestions of titles and authors (issue 22), in the WAI-ARIA
 * combobox pattern: the input is the combobox, the list a listbox whose highlighted option is
 * named by `aria-activedescendant`, so focus never leaves the input. ↓ and ↑ move (and wrap), Enter
 * opens the highlighted option or, with none highlighted, submits the surrounding form as before,
 * Escape closes the list, Tab leaves. Suggestions come after two characters and a pause.
 */
export function SearchSuggest({
  value,
  onValueChange,
  onOpenItem,
  onAuthor,
  inputRef,
  ...inputProps
}: InputProps &
  SuggestHandlers & {
    id: string;
    value: string;
    onValueChange: (value: string) => void;
    /** The input itself, for a screen that moves focus to it. */
    inputRef?: Ref<HTMLInputElement>;
  }) {
  const listId = useId();
  // Asks only once the person types: a box filled from the address stays quiet.
  const [typed, setTyped] = useState(false);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useSuggestions(value, typed);
  const expanded = open && value.trim().length >= SUGGEST_QUERY_MIN && suggestions.length > 0;
  const highlighted = expanded && active < suggestions.length ? active : -1;
  const optionId = (index: number) => `${listId}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(-1);
  };
  const choose = (suggestion: Suggestion) => {
    close();
    if (suggestion.kind === 'title' && suggestion.itemId) onOpenItem(suggestion.itemId);
    else onAuthor(suggestion.text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // Keys that compose a character (an input method's Enter) are not ours.
    if (event.nativeEvent.isComposing) return;
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (!expanded) {
          if (count > 0 && value.trim().length >= SUGGEST_QUERY_MIN) {
            event.preventDefault();
            setOpen(true);
            setActive(event.key === 'ArrowDown' ? 0 : count - 1);
          }
          return;
        }
        event.preventDefault();
        setActive((current) => {
          const from = current < count ? current : -1;
          if (event.key === 'ArrowDown') return from + 1 >= count ? 0 : from + 1;
          return from <= 0 ? count - 1 : from - 1;
        });
        return;
      }
      case 'Enter': {
        const suggestion = highlighted >= 0 ? suggestions[highlighted] : undefined;
        if (suggestion) {
          event.preventDefault();
          choose(suggestion);
        } else {
          close();
        }
        return;
      }
      case 'Escape':
        // Escape in a search box would also clear it: only close the list when one is open.
        if (expanded) {
          event.preventDefault();
          close();
        }
        return;
      case 'Tab':
        close();
        return;
      default:
        return;
    }
  };

  return (
    <div className={styles.combobox}>
      <input
        {...inputProps}
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={highlighted >= 0 ? optionId(highlighted) : undefined}
        ref={inputRef}
        value={value}
        onChange={(event) => {
          onValueChange(event.target.value);
          setTyped(true);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {/* Present even when closed, so `aria-controls` always names an element. */}
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        className={styles.list}
        hidden={!expanded}
      >
        {expanded
          ? suggestions.map((suggestion, index) => (
              <li
                key={`${suggestion.kind}:${suggestion.itemId ?? suggestion.text}`}
                id={optionId(index)}
                role="option"
                aria-selected={index === highlighted}
                className={styles.option}
                // Keep the focus in the input: the click chooses, the blur would close first.
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => setActive(index)}
                onClick={() => choose(suggestion)}
              >
                <SuggestionLine suggestion={suggestion} />
              </li>
            ))
          : null}
      </ul>
      <p role="status" className="visually-hidden">
        {expanded
          ? `${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'}, use the arrow keys to choose`
          : ''}
      </p>
    </div>
  );
}

function SuggestionLine({ suggestion }: { suggestion: Suggestion }) {
  if (suggestion.kind === 'author') {
    return (
      <>
        <span className={styles.text}>
          <Highlighted text={suggestion.text} matched={suggestion.matched} />
        </span>
        <span className="visually-hidden">, </span>
        <span className={styles.detail}>Search by author</span>
      </>
    );
  }
  return (
    <>
      <span className={styles.text}>
        <Highlighted text={suggestion.text} matched={suggestion.matched} />
      </span>
      <span className="visually-hidden">, </span>
      <span className={styles.detail}>
        {[suggestion.itemType ? TYPE_LABELS[suggestion.itemType] : null, suggestion.detail]
          .filter(Boolean)
          .join(' · ')}
      </span>
    </>
  );
}

/** `text` with its matched ranges in `<mark>`, as elements (never as HTML). */
export function Highlighted({
  text,
  matched,
}: {
  text: string;
  matched: Suggestion['matched'];
}): ReactNode {
  const parts: ReactNode[] = [];
  let at = 0;
  const ranges = matched.map(([start = 0, end = 0]) => [start, end] as const);
  for (const [start, end] of ranges.sort((a, b) => a[0] - b[0])) {
    const from = Math.max(start, at);
    const to = Math.min(end, text.length);
    if (to <= from) continue;
    if (from > at) parts.push(text.slice(at, from));
    parts.push(<mark key={from}>{text.slice(from, to)}</mark>);
    at = to;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}
