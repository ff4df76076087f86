import { type ReactNode, useEffect, useRef } from 'react';
import styles from './book-viewer.module.css';

/** What a panel's content may read and do: the page shown, and moving to another. */
export interface ViewerContext {
  itemId: string;
  /** The page shown, from 1. */
  page: number;
  pageCount: number;
  /** The text of the page shown, once loaded (page markup, `contract/page-text.ts`). */
  content: string | undefined;
  /** Shows `page`; `words` are marked on it (a search's words), none by default. */
  goTo: (page: number, words?: string[]) => void;
}

/**
 * One panel of the viewer: a toolbar button named `label` opens it beside the page (a drawer on
 * phones). Adding a panel ("My notes") is one more entry in the viewer's list.
 */
export interface ViewerPanel {
  /** Unique among the viewer's panels; part of element ids. */
  id: string;
  label: string;
  content: (context: ViewerContext) => ReactNode;
}

/** The element id of a panel's frame, for the toolbar button's `aria-controls`. */
export function panelElementId(viewerId: string, panelId: string): string {
  return `${viewerId}-panel-${panelId}`;
}

/** The heading and Close button a panel opens with. */
function PanelHeader({
  headingId,
  label,
  onClose,
}: {
  headingId: string;
  label: string;
  onClose: () => void;
}) {
  return (
    <div className={styles.panelHeader}>
      <h3 id={headingId} className={styles.panelTitle}>
        {label}
      </h3>
      <button
        type="button"
        className={styles.closeButton}
        aria-label={`Close ${label}`}
        onClick={onClose}
      >
        ×
      </button>
    </div>
  );
}

/** Where focus goes when a panel opens: its `data-autofocus` element, or the panel itself. */
function focusInside(frame: HTMLElement) {
  (frame.querySelector<HTMLElement>('[data-autofocus]') ?? frame).focus();
}

/** What both frames of a panel take: they are mounted while the panel is open. */
interface FrameProps {
  id: string;
  label: string;
  onClose: () => void;
  children: ReactNode;
}

/**
 * A panel beside the page on wide screens: not modal; opening it moves focus in, Escape inside it
 * closes it (the caller returns focus to its button).
 */
export function SidePanel({ id, label, onClose, children }: FrameProps) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (ref.current) focusInside(ref.current);
  }, []);
  return (
    <section
      ref={ref}
      id={id}
      className={styles.sidePanel}
      data-scroller=""
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <PanelHeader headingId={`${id}-title`} label={label} onClose={onClose} />
      <div className={styles.panelBody}>{children}</div>
    </section>
  );
}

/**
 * A panel as a drawer on phones: a modal `<dialog>` from the side. The browser keeps focus in it
 * and Escape closes it; `onClose` runs however it closes, and the caller returns focus to the
 * button that opened it.
 */
export function DrawerPanel({ id, label, onClose, children }: FrameProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    focusInside(dialog);
    return () => {
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      id={id}
      className={styles.drawer}
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      onClose={(event) => {
        // The 'close' event comes a moment later: a dialog shown again meanwhile stays open.
        if (!event.currentTarget.open) onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog itself, outside its content) closes the drawer.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className={styles.drawerInner} data-scroller="">
        <PanelHeader headingId={`${id}-title`} label={label} onClose={onClose} />
        <div className={styles.panelBody}>{children}</div>
      </div>
    </dialog>
  );
}
