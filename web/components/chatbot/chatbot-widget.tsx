import {
  Component,
  lazy,
  Suspense,
  useCallback,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { ChatbotClose } from './chatbot-window.tsx';
import styles from './chatbot.module.css';

// The window's code (and the conversation logic behind it) stays out of the first bundle: most
// visits never open the chatbot, and the landing page has a size budget.
const loadWindow = () => import('./chatbot-window.tsx');

function lazyWindow() {
  return lazy(async () => ({ default: (await loadWindow()).ChatbotWindow }));
}

/** Shows `fallback` instead of a lazy part whose code failed to load (offline, a new deploy). */
class LoadBoundary extends Component<
  { children: ReactNode; fallback: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function ChatIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={styles.toggleIcon}>
      <path
        fill="currentColor"
        d="M12 3C6.5 3 2 6.6 2 11c0 2.4 1.3 4.5 3.4 6l-.9 3.4a.5.5 0 0 0 .7.6l4-2.1c.9.2 1.8.3 2.8.3 5.5 0 10-3.6 10-8s-4.5-8-10-8Zm-4.5 9.3a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Zm4.5 0a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Zm4.5 0a1.3 1.3 0 1 1 0-2.6 1.3 1.3 0 0 1 0 2.6Z"
      />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={styles.toggleIcon}>
      <path
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        strokeLinecap="round"
        d="M6 6l12 12M18 6 6 18"
      />
    </svg>
  );
}

/**
 * The floating Digi Chatbot on every screen: a round toggle in the bottom-right corner, and the
 * chat window, whose code loads on first open. It lives in the layout, so the conversation
 * survives moving between screens; the window stays mounted (hidden) once opened for the same
 * reason. The toggle's name stays 'Digi Chatbot' and `aria-expanded` says open or closed (the
 * disclosure pattern), which also keeps it from matching other screens' 'Open' buttons.
 */
export function ChatbotWidget() {
  const id = useId();
  const windowId = `${id}-window`;
  const toggle = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [started, setStarted] = useState(false);
  // A failed load is retried with a new lazy component: React keeps a rejected one for good.
  const [load, setLoad] = useState(() => ({ attempt: 0, Window: lazyWindow() }));

  const close = useCallback<ChatbotClose>(({ returnFocus = true } = {}) => {
    setOpen(false);
    if (returnFocus) toggle.current?.focus();
  }, []);

  const onToggleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  };

  // Starts fetching the window's code as soon as someone heads for the button.
  const preload = () => void loadWindow().catch(() => undefined);

  const { Window } = load;

  return (
    <aside aria-label="Digi Chatbot" className={styles.widget}>
      <button
        ref={toggle}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={windowId}
        onClick={() => {
          if (open) {
            close();
          } else {
            setStarted(true);
            setOpen(true);
          }
        }}
        onKeyDown={onToggleKeyDown}
        onPointerEnter={preload}
        onFocus={preload}
      >
        {open ? <CloseIcon /> : <ChatIcon />}
        <span className="visually-hidden">Digi Chatbot</span>
      </button>
      {started ? (
        <div id={windowId} hidden={!open}>
          <LoadBoundary
            key={load.attempt}
            fallback={
              <div className={styles.window} role="alert">
                <p className={styles.loadNote}>
                  Digi Chatbot could not load. Check your connection and try again.
                </p>
                <button
                  type="button"
                  className={styles.retry}
                  onClick={() =>
                    setLoad(({ attempt }) => ({ attempt: attempt + 1, Window: lazyWindow() }))
                  }
                >
                  Try again
                </button>
              </div>
            }
          >
            <Suspense
              fallback={
                <div className={styles.window} role="status">
                  <p className={styles.loadNote}>Loading Digi Chatbot…</p>
                </div>
              }
            >
              <Window open={open} onClose={close} />
            </Suspense>
          </LoadBoundary>
        </div>
      ) : null}
    </aside>
  );
}
