import { type ReactNode, useEffect, useId, useRef } from 'react';
import styles from './dialog.module.css';

/**
 * A modal on the native `<dialog>`: the browser traps focus, Escape closes it and focus goes
 * back to where it was. `onClose` runs however it closes (a button, Escape), so the caller's
 * state stays the one truth. The element marked `data-autofocus` takes the focus on opening
 * (the safe choice, such as Cancel, for a destructive question).
 */
export function Dialog({
  open,
  title,
  children,
  actions,
  onClose,
  alert = false,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  actions: ReactNode;
  onClose: () => void;
  /** An urgent message that needs an answer: `role="alertdialog"`. */
  alert?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      role={alert ? 'alertdialog' : undefined}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onClose={() => {
        // Escape closes the native dialog by itself; tell the owner.
        if (open) onClose();
      }}
    >
      {open ? (
        <>
          <h2 id={`${id}-title`} className={styles.title}>
            {title}
          </h2>
          <div id={`${id}-body`} className={styles.body}>
            {children}
          </div>
          <div className={styles.actions}>{actions}</div>
        </>
      ) : null}
    </dialog>
  );
}
