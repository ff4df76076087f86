import { type InputHTMLAttributes, type ReactNode, useId } from 'react';
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
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
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
