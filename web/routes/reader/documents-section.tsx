import { type ChangeEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { formatDateTime } from '../../components/records/format.ts';
import { Button } from '../../components/ui/button.tsx';
import { readerAddress } from './drive-link.ts';
import { downloadText } from './download.ts';
import { exportFileName, exportMarkdown, mergeImport, parseExport } from './notes-markdown.ts';
import type { ChangeNotes } from './notes-panel.tsx';
import { newNoteId } from './notes-storage.ts';
import { documentList, type NotesStore } from './reader-notes.ts';
import styles from './reader.module.css';

/** An export is a few hundred kilobytes at most; a much larger file is something else. */
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** The sentence an import ends with: what came in and what was already here. */
export function importSummary(added: number, alreadyHere: number, documents: number): string {
  if (added === 0)
    return `Nothing new: the ${plural(alreadyHere, 'note')} in this file ${alreadyHere === 1 ? 'is' : 'are'} already here.`;
  const already =
    alreadyHere > 0 ? ` ${plural(alreadyHere, 'note')} already here were skipped.` : '';
  return `Imported ${plural(added, 'note')} into ${plural(documents, 'document')}.${already}`;
}

/**
 * The documents the student has notes on in this browser, each opening in the reader, with the
 * export of them all and the import of an export made in another browser.
 */
export function DocumentsSection({
  store,
  change,
  currentFileId,
}: {
  store: NotesStore;
  change: ChangeNotes;
  currentFileId: string | null;
}) {
  const headingId = useId();
  const fileId = useId();
  const hintId = useId();
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const documents = documentList(store);

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) {
        setMessage({
          kind: 'error',
          text: 'This file is too large to be a notes export (over 5 MB). Choose the .md file that Export made.',
        });
        return;
      }
      const parsed = parseExport(await file.text());
      if (!parsed.ok) {
        setMessage({ kind: 'error', text: parsed.error });
        return;
      }
      let summary = '';
      const error = change((current) => {
        const result = mergeImport(current, parsed.documents, new Date().toISOString(), newNoteId);
        summary = importSummary(result.added, result.alreadyHere, result.documents);
        return result.store;
      });
      setMessage(error ? { kind: 'error', text: error } : { kind: 'info', text: summary });
    } catch {
      setMessage({ kind: 'error', text: 'This file could not be read. Choose it again.' });
    } finally {
      // The same file can be chosen again (after fixing it, or on purpose).
      input.value = '';
    }
  };

  return (
    <section className={styles.documents} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Documents with notes
      </h2>
      {documents.length > 0 ? (
        <ul className={styles.documentList}>
          {documents.map((document) => (
            <li key={document.fileId} className={styles.documentRow}>
              <Link
                to={readerAddress(document.link)}
                aria-current={document.fileId === currentFileId ? 'page' : undefined}
                className={styles.documentLink}
              >
                {document.title}
              </Link>
              <span className={styles.documentMeta}>
                {plural(document.noteCount, 'note')} · last changed{' '}
                {formatDateTime(document.updatedAt)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.empty}>
          No notes in this browser yet. Notes you add to a document, or import, are listed here.
        </p>
      )}
      <div className={styles.transfer}>
        {documents.length > 0 ? (
          <Button
            variant="outline"
            onClick={() => {
              const at = new Date();
              const all = documents.map((each) => store.documents[each.fileId]!);
              downloadText(exportFileName(all, at), exportMarkdown(all, at));
            }}
          >
            Export all notes (Markdown)
          </Button>
        ) : null}
        <div className={formStyles.field}>
          <label htmlFor={fileId} className={formStyles.label}>
            Import notes from an export
          </label>
          <input
            id={fileId}
            type="file"
            accept=".md,.markdown,.txt,text/markdown,text/plain"
            className={`${formStyles.input} ${styles.fileInput}`}
            aria-describedby={hintId}
            onChange={(event) => void importFile(event)}
          />
          <span id={hintId} className={formStyles.hint}>
            A .md file made with Export, in this or another browser. Notes already here are not
            added twice.
          </span>
        </div>
      </div>
      {message ? <FormMessage kind={message.kind}>{message.text}</FormMessage> : null}
    </section>
  );
}
