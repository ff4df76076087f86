import { type FormEvent, useId, useState } from 'react';
import { useLocation } from 'react-router';
import { useCurrentUser } from '../../api/session.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { MoreLikeThis } from '../../components/catalogue/more-like-this.tsx';
import { pageStyles } from '../../components/page/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { driveFileId, drivePreviewUrl } from './drive-link.ts';
import styles from './reader.module.css';

function linkFromState(state: unknown): string {
  if (typeof state === 'object' && state !== null && 'driveLink' in state) {
    const { driveLink } = state as { driveLink: unknown };
    if (typeof driveLink === 'string') return driveLink;
  }
  return '';
}

/** The catalogue item the reader was opened from (a course material), when it was. */
function itemFromState(state: unknown): string | null {
  if (typeof state === 'object' && state !== null && 'itemId' in state) {
    const { itemId } = state as { itemId: unknown };
    if (typeof itemId === 'string' && itemId !== '') return itemId;
  }
  return null;
}

/** Notes stay in this browser only, per person and per document. */
const notesKey = (userId: string, fileId: string) => `digi.notes.${userId}.${fileId}`;

/** `/reader`: a Google Drive document's preview with private notes beside it. */
export function ReaderPage() {
  useDocumentTitle('Reader');
  const location = useLocation();
  const { data: user } = useCurrentUser();
  const [link, setLink] = useState(() => linkFromState(location.state));
  // Only while the document it was opened with is shown: another link is not that item.
  const itemId = itemFromState(location.state);
  const openedLink = linkFromState(location.state);
  const [draft, setDraft] = useState(link);
  const linkId = useId();
  const fileId = link ? driveFileId(link) : null;
  const key = user && fileId ? notesKey(user.id, fileId) : null;

  const open = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setLink(draft.trim());
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <h1 className={formStyles.title}>Reader</h1>
      <form className={styles.linkForm} onSubmit={open}>
        <label htmlFor={linkId} className={formStyles.label}>
          Google Drive link
        </label>
        <div className={styles.linkRow}>
          <input
            id={linkId}
            type="url"
            className={formStyles.input}
            value={draft}
            placeholder="https://drive.google.com/file/d/…/view"
            onChange={(event) => setDraft(event.target.value)}
          />
          <Button type="submit">Open</Button>
        </div>
      </form>
      <div className={styles.layout}>
        <div className={styles.document}>
          {fileId ? (
            <iframe
              className={styles.frame}
              src={drivePreviewUrl(fileId)}
              title="Document preview"
              allow="autoplay"
              referrerPolicy="strict-origin-when-cross-origin"
            />
          ) : link ? (
            <FormMessage>
              This is not a Google Drive file link. It should look like
              https://drive.google.com/file/d/…/view, with a file id of at least 25 characters.
            </FormMessage>
          ) : (
            <p className={styles.placeholder}>
              Enter a Google Drive PDF link above to view the document.
            </p>
          )}
        </div>
        {/* Keyed by document: each one's notes load fresh when another is opened. */}
        <NotesPane key={key ?? 'none'} storageKey={key} />
      </div>
      {itemId && link === openedLink ? <MoreLikeThis itemId={itemId} /> : null}
    </div>
  );
}

/** 'Your Notes' for one document, saved to this browser as they are typed. */
function NotesPane({ storageKey }: { storageKey: string | null }) {
  const id = useId();
  const [notes, setNotes] = useState(() =>
    storageKey ? (localStorage.getItem(storageKey) ?? '') : '',
  );
  return (
    <div className={styles.notes}>
      <label htmlFor={id} className={formStyles.label}>
        Your Notes
      </label>
      <textarea
        id={id}
        className={`${formStyles.input} ${styles.notesInput}`}
        value={notes}
        disabled={!storageKey}
        placeholder={
          storageKey
            ? 'Write anything: notes stay in this browser.'
            : 'Open a document to take notes on it.'
        }
        onChange={(event) => {
          setNotes(event.target.value);
          if (storageKey) localStorage.setItem(storageKey, event.target.value);
        }}
      />
      <span className={formStyles.hint}>
        Private: kept in this browser only, never sent to the library.
      </span>
    </div>
  );
}
