import { useId } from 'react';
import {
  READING_LINE_WIDTHS,
  READING_TEXT_SIZES,
  READING_THEMES,
  type ReadingPreferences,
} from '#contract/http/reading.ts';
import styles from './book-viewer.module.css';

const LABELS = {
  textSize: { small: 'Small', medium: 'Medium', large: 'Large', 'x-large': 'Extra large' },
  lineWidth: { narrow: 'Narrow', medium: 'Medium', wide: 'Wide' },
  theme: { light: 'Light', sepia: 'Sepia', dark: 'Dark' },
} as const;

/** One choice as a row of radio buttons that look like a segmented control. */
function Choice<Key extends keyof ReadingPreferences>({
  legend,
  name,
  options,
  value,
  labels,
  onChange,
}: {
  legend: string;
  name: Key;
  options: readonly ReadingPreferences[Key][];
  value: ReadingPreferences[Key];
  labels: Record<ReadingPreferences[Key], string>;
  onChange: (changes: Partial<ReadingPreferences>) => void;
}) {
  const group = useId();
  return (
    <fieldset className={styles.choice}>
      <legend>{legend}</legend>
      <div className={styles.segments}>
        {options.map((option) => (
          <label key={option} className={styles.segment} data-option={option}>
            <input
              type="radio"
              name={`${group}-${name}`}
              value={option}
              checked={option === value}
              onChange={() => onChange({ [name]: option } as Partial<ReadingPreferences>)}
            />
            <span>{labels[option]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * "Display": text size, line width and theme of the page. A choice applies at once and is kept
 * for the person on the server (every device they read on).
 */
export function DisplayPanel({
  preferences,
  onChange,
  saveError,
}: {
  preferences: ReadingPreferences;
  onChange: (changes: Partial<ReadingPreferences>) => void;
  /** Set when the last change could not be kept. */
  saveError: string | null;
}) {
  return (
    <div className={styles.display}>
      <Choice
        legend="Text size"
        name="textSize"
        options={READING_TEXT_SIZES}
        value={preferences.textSize}
        labels={LABELS.textSize}
        onChange={onChange}
      />
      <Choice
        legend="Line width"
        name="lineWidth"
        options={READING_LINE_WIDTHS}
        value={preferences.lineWidth}
        labels={LABELS.lineWidth}
        onChange={onChange}
      />
      <Choice
        legend="Theme"
        name="theme"
        options={READING_THEMES}
        value={preferences.theme}
        labels={LABELS.theme}
        onChange={onChange}
      />
      {saveError ? <p role="alert">{saveError}</p> : null}
    </div>
  );
}
