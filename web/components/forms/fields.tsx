import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import styles from './form.module.css';

/** Class names of the form look, for screens that lay out their own forms. */
export const formStyles = styles;

/**
 * A labelled input wired to react-hook-form, with its hint and error linked by
 * `aria-describedby` so screen readers read them with the field.
 */
export function TextField({
  label,
  registration,
  error,
  hint,
  ...input
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error?: { message?: string | undefined } | undefined;
  hint?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>) {
  const { id, hintId, errorId, describedBy } = useFieldIds(hint, error);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
        {...registration}
      />
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

type FieldError = { message?: string | undefined } | undefined;

/** The label, hint and error ids of one field, and its `aria-describedby`. */
function useFieldIds(hint: ReactNode, error: FieldError) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : null, error?.message ? errorId : null].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

/** The hint and error lines under a field. */
function FieldNotes({
  hint,
  hintId,
  error,
  errorId,
}: {
  hint: ReactNode;
  hintId: string;
  error: FieldError;
  errorId: string;
}) {
  return (
    <>
      {hint ? (
        <span id={hintId} className={styles.hint}>
          {hint}
        </span>
      ) : null}
      {error?.message ? (
        <span id={errorId} className={styles.error}>
          {error.message}
        </span>
      ) : null}
    </>
  );
}

/** A labelled multi-line input wired to react-hook-form, like `TextField`. */
export function TextAreaField({
  label,
  registration,
  error,
  hint,
  ...textarea
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  hint?: ReactNode;
} & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { id, hintId, errorId, describedBy } = useFieldIds(hint, error);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <textarea
        id={id}
        className={`${styles.input} ${styles.textarea}`}
        aria-invalid={error?.message ? true : undefined}
        aria-describedby={describedBy}
        rows={4}
        {...textarea}
        {...registration}
      />
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

/** A labelled `<select>` wired to react-hook-form, like `TextField`. */
export function SelectField({
  label,
  registration,
  error,
  hint,
  options,
  ...select
}: {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  hint?: ReactNode;
  options: readonly { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const { id, hintId, errorId, describedBy } = useFieldIds(hint, error);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <select
        id={id}
        className={styles.input}
        aria-invalid={error?.message ? true : undefined}
        aria-describedby={describedBy}
        {...select}
        {...registration}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldNotes hint={hint} hintId={hintId} error={error} errorId={errorId} />
    </div>
  );
}

/** A message about the whole form: an error (role alert) or information (role status). */
export function FormMessage({
  kind = 'error',
  children,
}: {
  kind?: 'error' | 'info';
  children: ReactNode;
}) {
  if (!children) return null;
  return (
    <p
      role={kind === 'error' ? 'alert' : 'status'}
      className={kind === 'error' ? styles.alert : styles.info}
    >
      {children}
    </p>
  );
}
