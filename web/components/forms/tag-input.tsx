import { type KeyboardEvent, useId, useState } from 'react';
import { normaliseTags } from '#contract/http/users.ts';
import { Button } from '../ui/button.tsx';
import styles from './form.module.css';

/**
 * A list of tags: Enter or Add adds the typed tag (trimmed; empty and repeated ones are ignored),
 * × removes one. The list is announced to screen readers as it changes.
 */
export function TagInput({
  label,
  value,
  onChange,
  placeholder,
  maxLength = 60,
}: {
  label: string;
  value: string[];
  onChange: (tags: string[]) => void;
  placeholder?: string;
  maxLength?: number;
}) {
  const [draft, setDraft] = useState('');
  const id = useId();

  const add = () => {
    onChange(normaliseTags([...value, draft]));
    setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  };

  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.tagEntry}>
        <input
          id={id}
          className={styles.input}
          value={draft}
          maxLength={maxLength}
          placeholder={placeholder}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <Button variant="outline" onClick={add} aria-label={`Add ${label.toLowerCase()}`}>
          Add
        </Button>
      </div>
      <ul className={styles.tags} aria-label={`${label} added`} aria-live="polite">
        {value.map((tag) => (
          <li key={tag} className={styles.tag}>
            {tag}
            <button
              type="button"
              className={styles.tagRemove}
              aria-label={`Remove ${tag}`}
              onClick={() => onChange(value.filter((item) => item !== tag))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
