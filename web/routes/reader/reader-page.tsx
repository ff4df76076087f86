import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { useCurrentUser } from '../../api/session.ts';
import { MoreLikeThis } from '../../components/catalogue/more-like-this.tsx';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { webAddress } from '../../components/links/web-address.ts';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { driveFileId, drivePreviewUrl, readerAddress } from './drive-link.ts';
import { DocumentsSection } from './documents-section.tsx';
import { useNotesStore } from './notes-storage.ts';
import { NotesPanel } from './notes-panel.tsx';
import { cleanTitle, type DocumentRef } from './reader-notes.ts';
import styles from './reader.module.css';

/** A string the page was navigated with (`{ driveLink, itemId, title }`), when it was. */
function fromState(state: unknown, name: 'driveLink' | 'itemId' | 'title'): string | null {
  if (typeof state === 'object' && state !== null && name in state) {
    const value = (state as Record<string, unknown>)[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/**
 * `/reader`: a Google Drive document's preview with the person's notes beside it, kept in this
 * browser only. The document comes from `?link=` (a bookmark, a typed link, the list of documents)
 * or from the state a course material's card navigates with (`{ driveLink, itemId, title }`).
 */
export function ReaderPage() {
  useDocumentTitle('Reader');
  const location = useLocation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { data: user } = useCurrentUser();
  const { store, change } = useNotesStore(user?.id ?? null);

  const stateLink = fromState(location.state, 'driveLink');
  const link = (searchParams.get('link') ?? stateLink ?? '').trim();
  // The course material's details hold only while the document it opened is shown.
  const fromMaterial = stateLink !== null && stateLink.trim() === link;
  const itemId = fromMaterial ? fromState(location.state, 'itemId') : null;
  const materialTitle = fromMaterial ? fromState(location.state, 'title') : null;
  const fileId = link ? driveFileId(link) : null;

  const [draft, setDraft] = useState(link);
  const [draftFor, setDraftFor] = useState(link);
  if (draftFor !== link) {
    // Another document (the back button, a listed one): the box shows its link.
    setDraftFor(link);
    setDraft(link);
  }
  const linkId = useId();

  const open = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = draft.trim();
    if (typed === link) return;
    // In the address, so the document can be bookmarked and the back button returns to the last.
    void navigate(typed ? readerAddress(typed) : ROUTES.reader);
  };

  const stored = fileId ? store.documents[fileId] : undefined;
  // A name the student gave wins; a document known only by its id takes the material's title.
  const ownName = stored && stored.title !== fileId ? stored.title : '';
  const current: DocumentRef | null = fileId
    ? {
        fileId,
        title: ownName || cleanTitle(materialTitle ?? '') || fileId,
        link: stored?.link ?? link,
      }
    : null;

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Reader"
        lead="Read a Google Drive document beside your own notes, kept in this browser only."
      />
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
            <NotADriveFile link={link} />
          ) : (
            <p className={styles.placeholder}>
              Enter a Google Drive PDF link above to view the document.
            </p>
          )}
        </div>
        {/* Keyed by document: the note being typed and any edit belong to the one they began on. */}
        <NotesPanel
          key={fileId ?? 'none'}
          userId={user?.id ?? null}
          document={current}
          notes={stored?.notes ?? []}
          change={change}
        />
      </div>
      <DocumentsSection store={store} change={change} currentFileId={fileId} />
      {itemId ? <MoreLikeThis itemId={itemId} /> : null}
    </div>
  );
}

function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return '';
  }
}

/** Why a link is not shown here, and, for a web page, the way to it in a new tab. */
function NotADriveFile({ link }: { link: string }) {
  // Only a web page may open from here: never `javascript:`, `data:` or a path on this site.
  const page = /^https?:\/\//i.test(link) ? webAddress(link) : undefined;
  const host = page ? hostOf(page) : '';
  return (
    <div className={styles.notDrive}>
      <FormMessage>
        This is not a Google Drive file link. The reader shows only Drive files, so it cannot show
        this one here: a Drive file link looks like https://drive.google.com/file/d/…/view, with a
        file id of at least 25 characters.
      </FormMessage>
      {page ? (
        <p>
          <a href={page} target="_blank" rel="noopener noreferrer">
            Open {host || 'the link'} in a new tab
          </a>
        </p>
      ) : (
        <p className={formStyles.hint}>
          It is not a web address either, so there is nothing to open from here.
        </p>
      )}
    </div>
  );
}
