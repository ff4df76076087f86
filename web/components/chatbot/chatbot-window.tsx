import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { CHATBOT_PROMPT_MAX, CHATBOT_TEXT } from '#contract/http/chatbot.ts';
import { appPath, type ChatbotLine } from '../../api/chatbot.ts';
import { FormMessage, formStyles } from '../forms/fields.tsx';
import { useSendHandlers } from '../forms/send-key.ts';
import { Button } from '../ui/button.tsx';
import styles from './chatbot.module.css';
import { useChatbotConversation } from './use-chatbot-conversation.ts';

/** How the widget closes: after following a link, focus belongs to the new screen, not the toggle. */
export type ChatbotClose = (options?: { returnFocus?: boolean }) => void;

// Below this width the window covers the page (see chatbot.module.css), so a followed link
// closes it: otherwise the screen it opens would sit hidden underneath.
const COVERS_PAGE = '(max-width: 30rem)';

const countFormat = new Intl.NumberFormat('en-US');

/** One line of the conversation. Text is rendered as text (never HTML), its line breaks kept. */
function ConversationLine({ line, onFollow }: { line: ChatbotLine; onFollow: () => void }) {
  const links = (line.links ?? []).flatMap((link) => {
    // Checked again here: stored lines come back from sessionStorage.
    const path = appPath(link.href);
    return path ? [{ label: link.label, path }] : [];
  });
  const prefix =
    line.sender === 'user'
      ? 'You: '
      : line.error && !/^error\b/i.test(line.text)
        ? 'Digi Chatbot, error: '
        : 'Digi Chatbot: ';
  return (
    <li
      className={styles.line}
      data-sender={line.sender}
      data-error={line.error ? true : undefined}
    >
      <p className={styles.text}>
        <span className="visually-hidden">{prefix}</span>
        {line.error ? (
          <span className={styles.errorMark} aria-hidden="true">
            !
          </span>
        ) : null}
        {line.text || (line.sender === 'bot' ? CHATBOT_TEXT.noResponse : '')}
      </p>
      {links.length > 0 ? (
        <ul className={styles.links} aria-label="Links">
          {links.map((link, index) => (
            <li key={index}>
              <Link to={link.path} onClick={onFollow}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/**
 * The Digi Chatbot window: a non-modal dialog (the page stays usable behind it) with the
 * conversation, a typing indicator and the message box. It stays mounted while closed, so a
 * half-written question and the scroll position survive; `open` moves focus into the box.
 */
export function ChatbotWindow({ open, onClose }: { open: boolean; onClose: ChatbotClose }) {
  const id = useId();
  const { lines, pending, announcement, send, clear } = useChatbotConversation();
  const input = useRef<HTMLTextAreaElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [draft, setDraft] = useState('');
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  // The newest line stays in view; a hidden scroller loses its position, so opening counts too.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (open && element) element.scrollTop = element.scrollHeight;
  }, [open, lines.length, pending]);

  const submit = () => {
    if (!draft.trim()) {
      setNotice({ kind: 'error', text: 'Type a question first' });
    } else if (draft.length > CHATBOT_PROMPT_MAX) {
      setNotice({
        kind: 'error',
        text: `A question can be at most ${countFormat.format(CHATBOT_PROMPT_MAX)} characters.`,
      });
    } else if (pending) {
      setNotice({ kind: 'info', text: 'Digi Chatbot is still answering your last question.' });
    } else if (send(draft)) {
      setDraft('');
      setNotice(null);
    }
  };

  const { onSubmit, onKeyDown: onInputKeyDown } = useSendHandlers(submit);

  const onWindowKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Escape' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onClose();
    }
  };

  const onFollow = () => {
    if (window.matchMedia?.(COVERS_PAGE).matches) onClose({ returnFocus: false });
  };

  const left = CHATBOT_PROMPT_MAX - draft.length;

  return (
    // Escape is handled on the whole window, wherever focus is inside it.
    <section
      role="dialog"
      aria-labelledby={`${id}-title`}
      className={styles.window}
      onKeyDown={onWindowKeyDown}
    >
      <header className={styles.header}>
        <h2 id={`${id}-title`} className={styles.title}>
          {CHATBOT_TEXT.title}
        </h2>
        <div className={styles.headerActions}>
          <Button
            variant="ghost"
            className={styles.headerButton}
            onClick={() => {
              clear();
              setNotice(null);
              input.current?.focus();
            }}
          >
            Clear
          </Button>
          <Button variant="ghost" className={styles.headerButton} onClick={() => onClose()}>
            Close
          </Button>
        </div>
      </header>

      <div
        ref={scroller}
        className={styles.conversation}
        role="region"
        aria-label="Conversation"
        // Focusable so keyboard users can scroll a long conversation.
        tabIndex={0}
      >
        {lines.length === 0 ? (
          <p className={styles.welcome}>{CHATBOT_TEXT.welcome}</p>
        ) : (
          <ol className={styles.lines}>
            {/* Lines are only ever appended or all cleared, so their index is a stable key. */}
            {lines.map((line, index) => (
              <ConversationLine key={index} line={line} onFollow={onFollow} />
            ))}
          </ol>
        )}
        {pending ? (
          // Seen, not heard: the status region below says it in words.
          <div className={styles.typing} aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
        ) : null}
      </div>

      {/* Always present, so each change is announced: the typing notice, then the new reply only. */}
      <p role="status" className="visually-hidden">
        {announcement}
      </p>

      <form className={styles.composer} onSubmit={onSubmit} noValidate>
        <label htmlFor={`${id}-prompt`} className="visually-hidden">
          Your question
        </label>
        <div className={formStyles.composerRow}>
          <textarea
            ref={input}
            id={`${id}-prompt`}
            className={`${formStyles.composerInput} ${styles.input}`}
            rows={2}
            maxLength={CHATBOT_PROMPT_MAX}
            value={draft}
            placeholder="Ask a question…"
            aria-describedby={`${id}-hint ${id}-count`}
            aria-invalid={notice?.kind === 'error' ? true : undefined}
            onChange={(event) => {
              setDraft(event.target.value);
              if (notice) setNotice(null);
            }}
            onKeyDown={onInputKeyDown}
          />
          <Button type="submit" className={styles.send} aria-disabled={pending || undefined}>
            Send
          </Button>
        </div>
        <div className={styles.composerNotes}>
          <span id={`${id}-hint`}>Enter sends, Shift+Enter starts a new line.</span>
          <span id={`${id}-count`} data-low={left <= 100 ? true : undefined}>
            {countFormat.format(left)} characters left
          </span>
        </div>
        {notice ? <FormMessage kind={notice.kind}>{notice.text}</FormMessage> : null}
      </form>
    </section>
  );
}
