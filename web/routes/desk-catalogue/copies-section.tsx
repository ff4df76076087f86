import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import {
  COPY_LOCATION_MAX,
  COPY_NOTE_MAX,
  COPY_STATUS_LABELS,
  COPY_STATUSES,
  copyUpdateSchema,
  type Copy,
  type CopyStatus,
  type CopyUpdate,
} from '#contract/http/copies.ts';
import { ApiError } from '../../api/client.ts';
import { useItemCopies, useUpdateCopy } from '../../api/items.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { AddCopyForm } from './add-copy-form.tsx';
import styles from './desk-catalogue.module.css';
import { COPY_STATUS_TONES, FIELD_LABELS, listInWords } from './labels.ts';

const copiesWord = (count: number) => (count === 1 ? '1 copy' : `${count} copies`);

/** The physical copies of an item: the table, each row editable in place, and Add a copy. */
export function CopiesSection({ itemId }: { itemId: string }) {
  const copies = useItemCopies(itemId);
  const [message, setMessage] = useState('');

  return (
    <section className={styles.section} aria-labelledby="copies-title">
      <h2 id="copies-title" className={styles.sectionTitle}>
        Copies
      </h2>
      {copies.isPending ? (
        <p role="status">Loading the copies…</p>
      ) : copies.isError ? (
        <p role="alert">The copies could not be loaded: {copies.error.message}</p>
      ) : (
        <>
          <p className={styles.muted}>
            {copies.data.total === 0
              ? 'No copies yet: add the first one below.'
              : `${copiesWord(copies.data.total)} in the library, ${copies.data.available} free to reserve now.`}
          </p>
          {copies.data.copies && copies.data.copies.length > 0 ? (
            <CopiesTable copies={copies.data.copies} itemId={itemId} onSaved={setMessage} />
          ) : null}
        </>
      )}
      <p role="status" className={message ? formStyles.info : styles.quiet}>
        {message}
      </p>
      <AddCopyForm itemId={itemId} />
    </section>
  );
}

function CopiesTable({
  copies,
  itemId,
  onSaved,
}: {
  copies: Copy[];
  itemId: string;
  onSaved: (message: string) => void;
}) {
  return (
    <div
      className={styles.scroller}
      role="region"
      aria-labelledby="copies-caption"
      // Focusable so keyboard users can scroll the table sideways on a narrow screen.
      tabIndex={0}
    >
      <table className={styles.table}>
        <caption id="copies-caption" className="visually-hidden">
          {copiesWord(copies.length)} with barcode, location, status and note
        </caption>
        <thead>
          <tr>
            <th scope="col">Barcode</th>
            <th scope="col">Location</th>
            <th scope="col">Status</th>
            <th scope="col">Note</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {copies.map((copy) => (
            <CopyRow key={copy.id} copy={copy} itemId={itemId} onSaved={onSaved} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

type Draft = { location: string; status: CopyStatus; note: string };

/** One copy: its fields, or, while being edited, boxes for location, status and note. */
function CopyRow({
  copy,
  itemId,
  onSaved,
}: {
  copy: Copy;
  itemId: string;
  onSaved: (message: string) => void;
}) {
  const update = useUpdateCopy(itemId);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const [failure, setFailure] = useState('');
  const editButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const id = useId();
  const formId = `${id}-form`;

  const close = () => {
    setDraft(null);
    setErrors({});
    setFailure('');
    refocus.current = true;
  };

  // Back to the button that opened the editor once it is shown again, so keyboard users keep
  // their place (the box they were in has gone with the editor).
  useEffect(() => {
    if (draft === null && refocus.current) {
      refocus.current = false;
      editButton.current?.focus();
    }
  }, [draft]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const patch: CopyUpdate = {};
    if (draft.location.trim() !== copy.location) patch.location = draft.location;
    if (draft.status !== copy.status) patch.status = draft.status;
    if (draft.note.trim() !== copy.note) patch.note = draft.note;
    if (Object.keys(patch).length === 0) {
      onSaved(`Copy ${copy.barcode} is unchanged.`);
      close();
      return;
    }
    const parsed = copyUpdateSchema.safeParse(patch);
    if (!parsed.success) {
      const found: Partial<Record<keyof Draft, string>> = {};
      for (const issue of parsed.error.issues)
        found[issue.path[0] as keyof Draft] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    setFailure('');
    update.mutate(
      { barcode: copy.barcode, patch: parsed.data },
      {
        onSuccess: () => {
          const names = Object.keys(patch).map((field) => FIELD_LABELS[field] ?? field);
          onSaved(`Copy ${copy.barcode} saved: ${listInWords(names).toLowerCase()} changed.`);
          close();
        },
        onError: (error) =>
          setFailure(
            error instanceof ApiError && error.fromServer
              ? `Not saved: ${error.message}`
              : 'Not saved: the server could not be reached. Please try again.',
          ),
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  };

  const described = (field: keyof Draft) =>
    errors[field]
      ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-${field}-error` }
      : {};
  const errorOf = (field: keyof Draft) =>
    errors[field] ? (
      <span id={`${id}-${field}-error`} className={formStyles.error}>
        {errors[field]}
      </span>
    ) : null;

  if (!draft) {
    return (
      <tr>
        <th scope="row" className={styles.barcode}>
          {copy.barcode}
        </th>
        <td data-label="Location">
          {copy.location || <span className={styles.muted}>No location</span>}
        </td>
        <td data-label="Status">
          <StatusBadge
            label={COPY_STATUS_LABELS[copy.status]}
            tone={COPY_STATUS_TONES[copy.status]}
          />
        </td>
        <td data-label="Note">{copy.note || <span className={styles.muted}>None</span>}</td>
        <td>
          <Button
            ref={editButton}
            variant="ghost"
            className={styles.rowButton}
            aria-label={`Edit copy ${copy.barcode}`}
            onClick={() =>
              setDraft({ location: copy.location, status: copy.status, note: copy.note })
            }
          >
            Edit
          </Button>
        </td>
      </tr>
    );
  }

  return (
    <tr className={styles.editing} onKeyDown={onKeyDown}>
      <th scope="row" className={styles.barcode}>
        {copy.barcode}
      </th>
      <td data-label="Location">
        <label htmlFor={`${id}-location`} className="visually-hidden">
          Location of copy {copy.barcode}
        </label>
        <input
          id={`${id}-location`}
          form={formId}
          className={formStyles.input}
          value={draft.location}
          maxLength={COPY_LOCATION_MAX}
          onChange={(event) => setDraft({ ...draft, location: event.target.value })}
          autoFocus
          {...described('location')}
        />
        {errorOf('location')}
      </td>
      <td data-label="Status">
        <label htmlFor={`${id}-status`} className="visually-hidden">
          Status of copy {copy.barcode}
        </label>
        <select
          id={`${id}-status`}
          form={formId}
          className={formStyles.input}
          value={draft.status}
          onChange={(event) => setDraft({ ...draft, status: event.target.value as CopyStatus })}
          {...described('status')}
        >
          {COPY_STATUSES.map((status) => (
            <option key={status} value={status}>
              {COPY_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
        {errorOf('status')}
      </td>
      <td data-label="Note">
        <label htmlFor={`${id}-note`} className="visually-hidden">
          Note on copy {copy.barcode}
        </label>
        <input
          id={`${id}-note`}
          form={formId}
          className={formStyles.input}
          value={draft.note}
          maxLength={COPY_NOTE_MAX}
          onChange={(event) => setDraft({ ...draft, note: event.target.value })}
          {...described('note')}
        />
        {errorOf('note')}
      </td>
      <td>
        {/* The row's boxes belong to this form by their `form` attribute: a form cannot wrap
            table cells, and Enter in any of them saves. */}
        <form id={formId} className={styles.rowActions} onSubmit={onSubmit} noValidate>
          <Button
            type="submit"
            className={styles.rowButton}
            disabled={update.isPending}
            aria-label={`Save copy ${copy.barcode}`}
          >
            {update.isPending ? 'Saving…' : 'Save'}
          </Button>
          <Button
            variant="ghost"
            className={styles.rowButton}
            onClick={close}
            aria-label={`Cancel editing copy ${copy.barcode}`}
          >
            Cancel
          </Button>
        </form>
        {failure ? (
          <p role="alert" className={formStyles.error}>
            {failure}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
