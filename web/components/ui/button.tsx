import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './button.module.css';

/** Visual weight of a button or button-styled link. */
export type ButtonVariant =
  | 'primary'
  | 'accent'
  | 'outline'
  | 'outlineInverse'
  | 'ghost'
  /** Destructive actions: deleting or closing something for everyone. */
  | 'danger';

function classes(variant: ButtonVariant, extra?: string): string {
  return [styles.button, styles[variant], extra].filter(Boolean).join(' ');
}

/** A real `<button>` in the design system's look; `ref` reaches the button (to return focus). */
export function Button({
  variant = 'primary',
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  ref?: Ref<HTMLButtonElement>;
}) {
  return <button type={type} className={classes(variant, className)} {...props} />;
}

/** A router link that looks like a button: for navigation, never for actions. */
export function ButtonLink({
  variant = 'primary',
  className,
  children,
  ...props
}: LinkProps & { variant?: ButtonVariant; children: ReactNode }) {
  return (
    <Link className={classes(variant, className)} {...props}>
      {children}
    </Link>
  );
}
