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

type FieldError = { message?: string | undefined } | undefined;

/** What every field takes besides its control's own attributes. */
interface FieldProps {
  label: string;
  registration: UseFormRegisterReturn;
  error?: FieldError;
  hint?: ReactNode;
}

/** The id and accessibility attributes a field's frame hands its control. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * The part all fields share: the label, the optional hint and the error around one control. The
 * control gets its id and aria attributes from here (spread them onto it), so the label and both
 * notes always point at it. For a control that is not wired to react-hook-form, use it directly.
 */
export function FieldFrame({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: ReactNode;
  error?: FieldError;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy =
    [hint ? hintId : null, error?.message ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children({
        id,
        // Invalid exactly when the error is shown, so the state and its reason come together.
        'aria-invalid': error?.message ? true : undefined,
        'aria-describedby': describedBy,
      })}
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
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => <input {...control} className={styles.input} {...input} {...registration} />}
    </FieldFrame>
  );
}

/** A labelled multi-line input wired to react-hook-form, like `TextField`. */
export function TextAreaField({
  label,
  registration,
  error,
  hint,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => (
        <textarea
          {...control}
          className={`${styles.input} ${styles.textarea}`}
          rows={4}
          {...textarea}
          {...registration}
        />
      )}
    </FieldFrame>
  );
}

/**
 * A labelled `<select>` of `options`, like `TextField`: wired to react-hook-form by
 * `registration`, or, without it, controlled by `value` and `onChange` (a filter, not a form).
 */
export function SelectField({
  label,
  registration,
  error,
  hint,
  options,
  ...select
}: Omit<FieldProps, 'registration'> & {
  registration?: UseFormRegisterReturn;
  options: readonly { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error}>
      {(control) => (
        <select {...control} className={styles.input} {...select} {...registration}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
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
