import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  UPLOAD_EMPTY_MESSAGE,
  UPLOAD_KINDS,
  UPLOAD_MAX_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
  type CatalogueImport,
  type UploadKind,
} from '#contract/http/imports.ts';
import type { HealthResponse } from '#contract/http/health.ts';
import { ApiError } from '../../api/client.ts';
import { preparingMeaning, useHealth } from '../../api/health.ts';
import { IMPORTS_KEY, importRunning, uploadImportFile, useImports } from '../../api/imports.ts';
import { formStyles } from '../../components/forms/fields.tsx';
import { StatusBadge, type StatusTone } from '../../components/records/status-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './desk-catalogue.module.css';

const KIND_LABELS: Record<UploadKind, string> = {
  marc: 'MARC records',
  holdings: 'Holdings (copies to attach)',
};

const KIND_HINTS: Record<UploadKind, string> = {
  marc: 'MARC 21 as .mrc (ISO 2709) or MARCXML. Books already here are updated by ISBN or control number; copies come from 952 or 852 fields.',
  holdings:
    'A CSV with the columns isbn (or item_id), barcode and location, and optionally status. Each line adds or moves one copy.',
};

const STATE_LABELS: Record<CatalogueImport['state'], [string, StatusTone]> = {
  queued: ['Waiting', 'neutral'],
  running: ['Importing', 'progress'],
  done: ['Imported', 'positive'],
  failed: ['Failed', 'negative'],
};

/** The kind a file's name suggests: a CSV is holdings, anything else MARC. */
export function kindOfFile(name: string): UploadKind {
  return /\.csv$/i.test(name) ? 'holdings' : 'marc';
}

const schema = z.object({
  files: z
    .custom<FileList>()
    .refine((files) => files && files.length > 0, 'Choose a file to import')
    .refine((files) => !files?.[0] || files[0].size > 0, UPLOAD_EMPTY_MESSAGE)
    .refine((files) => !files?.[0] || files[0].size <= UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MESSAGE),
  kind: z.enum(UPLOAD_KINDS),
});
type Values = z.infer<typeof schema>;

const number = (value: number) => value.toLocaleString('en-US');
const copies = (count: number) => `${number(count)} ${count === 1 ? 'copy' : 'copies'}`;

/** What an import did, in one sentence. */
export function importSummary(entry: CatalogueImport): string {
  if (entry.state === 'failed') return entry.error ?? 'The import failed.';
  if (entry.state === 'queued') return 'Waiting for its turn…';
  const unit = entry.kind === 'marc' ? 'records' : 'lines';
  const rows = (count: number) => `${number(count)} ${count === 1 ? unit.slice(0, -1) : unit}`;
  if (entry.state === 'running') {
    return entry.rowsExpected > 0
      ? `${number(entry.rowsRead)} of about ${rows(entry.rowsExpected)} read…`
      : `${rows(entry.rowsRead)} read…`;
  }
  const report = entry.report;
  if (!report) return 'Imported.';
  const { counts } = report;
  const parts =
    entry.kind === 'marc'
      ? [
          `${number(counts.inserted)} added`,
          `${number(counts.updated)} updated`,
          `${number(counts.unchanged)} unchanged`,
        ]
      : [`${copies(counts.inserted)} added`, `${number(counts.updated)} moved or changed`];
  if (counts.skipped > 0) parts.push(`${number(counts.skipped)} skipped`);
  const copyText =
    entry.kind === 'marc' && report.copies
      ? ` Copies: ${number(report.copies.inserted)} added, ${number(report.copies.updated)} changed.`
      : '';
  return `${rows(counts.rows)} read: ${parts.join(', ')}.${copyText}`;
}

/**
 * Whether an import's report says its items are still being prepared for search by meaning: a
 * MARC import that added or changed items, while the server is still embedding some.
 */
export function preparingImportedItems(
  entry: CatalogueImport,
  health: HealthResponse | undefined,
): boolean {
  const counts = entry.report?.counts;
  return (
    entry.state === 'done' &&
    entry.kind === 'marc' &&
    counts !== undefined &&
    counts.inserted + counts.updated > 0 &&
    preparingMeaning(health)
  );
}

/** One import in the list: file, who and when, its state, and its report's bad rows. */
function ImportEntry({ entry }: { entry: CatalogueImport }) {
  // The same answer as the screen's search-by-meaning line: no request of its own.
  const health = useHealth();
  const [label, tone] = STATE_LABELS[entry.state];
  const position = entry.kind === 'marc' ? 'Record' : 'Line';
  const running = importRunning(entry);
  const bad = entry.report?.badRows ?? [];
  return (
    <li className={styles.importEntry}>
      <div className={styles.resultHead}>
        <span className={styles.importFile}>{entry.fileName}</span>
        <StatusBadge label={label} tone={tone} />
      </div>
      <p className={styles.muted}>
        {KIND_LABELS[entry.kind]} · {entry.createdByName || 'A librarian'} ·{' '}
        {new Date(entry.createdAt).toLocaleString('en-US', {
          dateStyle: 'medium',
          timeStyle: 'short',
        })}
      </p>
      {running ? (
        <progress
          className={styles.importProgress}
          aria-label={`Import of ${entry.fileName}`}
          max={Math.max(entry.rowsExpected, entry.rowsRead, 1)}
          value={entry.state === 'queued' ? undefined : entry.rowsRead}
        />
      ) : null}
      <p>{importSummary(entry)}</p>
      {preparingImportedItems(entry, health.data) ? (
        <p className={styles.muted}>
          The new and changed items are being prepared for search by meaning: they can be found by
          their words already.
        </p>
      ) : null}
      {bad.length > 0 ? (
        <details>
          <summary>
            {number(bad.length + (entry.report?.moreBadRows ?? 0))} skipped, and why
          </summary>
          <ul className={styles.badRows}>
            {bad.map((row) => (
              <li key={row.line}>
                {position} {number(row.line)}: {row.reason}
              </li>
            ))}
            {entry.report && entry.report.moreBadRows > 0 ? (
              <li>and {number(entry.report.moreBadRows)} more</li>
            ) : null}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

/**
 * "Import from a file" on `/desk/catalogue`: a librarian sends a MARC file or a holdings CSV,
 * watches it upload and then import (the server runs the import in its job queue, so the rest of
 * the library goes on meanwhile), and reads what it did. The latest imports stay listed.
 */
export function ImportSection() {
  const queryClient = useQueryClient();
  const imports = useImports();
  const [sent, setSent] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const headingId = useId();
  const listHeadingId = useId();
  const ids = { file: useId(), fileHint: useId(), fileError: useId(), kindHint: useId() };
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    control,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { kind: 'marc' } });
  const kind = useWatch({ control, name: 'kind' });
  // Says once, in the status line, when an import this screen watched running has finished.
  const watching = useRef(new Set<string>());
  useEffect(() => {
    for (const entry of imports.data ?? []) {
      if (importRunning(entry)) watching.current.add(entry.id);
      else if (watching.current.delete(entry.id)) {
        setStatus(`${entry.fileName}: ${importSummary(entry)}`);
      }
    }
  }, [imports.data]);
  const files = register('files', {
    onChange: (event: { target: HTMLInputElement }) => {
      const name = event.target.files?.[0]?.name;
      if (name) setValue('kind', kindOfFile(name));
    },
  });

  const onSubmit = handleSubmit(async ({ files: chosen, kind: chosenKind }, event) => {
    const form = event?.target instanceof HTMLFormElement ? event.target : null;
    const file = chosen[0]!;
    setSent(0);
    setStatus(`Uploading ${file.name}…`);
    try {
      const queued = await uploadImportFile(file, { kind: chosenKind, name: file.name }, setSent);
      queryClient.setQueryData<CatalogueImport[]>(IMPORTS_KEY, (list) => [
        queued,
        ...(list ?? []).filter((entry) => entry.id !== queued.id),
      ]);
      void queryClient.invalidateQueries({ queryKey: IMPORTS_KEY });
      setStatus(`${file.name} is uploaded and being imported: follow it below.`);
      // A file box cannot be emptied through react-hook-form; the form's own reset empties it.
      form?.reset();
      reset({ kind: chosenKind });
    } catch (error) {
      setStatus('');
      setError('files', {
        message: error instanceof ApiError ? error.message : 'The upload failed. Please try again.',
      });
    } finally {
      setSent(null);
    }
  });

  const fileError = errors.files?.message;
  return (
    <section aria-labelledby={headingId} className={styles.importSection}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Import from a file
      </h2>
      <form className={styles.importForm} onSubmit={onSubmit} noValidate>
        <div className={formStyles.field}>
          <label htmlFor={ids.file} className={formStyles.label}>
            File to import
          </label>
          <input
            id={ids.file}
            type="file"
            accept=".mrc,.marc,.xml,.csv,application/marc,application/marcxml+xml,text/csv"
            className={formStyles.input}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={[ids.fileHint, fileError ? ids.fileError : null]
              .filter(Boolean)
              .join(' ')}
            {...files}
          />
          <span id={ids.fileHint} className={formStyles.hint}>
            Up to {UPLOAD_MAX_BYTES / 1024 / 1024} MB.
          </span>
          {fileError ? (
            <span id={ids.fileError} className={formStyles.error} role="alert">
              {fileError}
            </span>
          ) : null}
        </div>
        <fieldset className={styles.kindChoice} aria-describedby={ids.kindHint}>
          <legend className={formStyles.label}>The file holds</legend>
          {UPLOAD_KINDS.map((each) => (
            <label key={each} className={formStyles.check}>
              <input type="radio" value={each} {...register('kind')} />
              {KIND_LABELS[each]}
            </label>
          ))}
          <span id={ids.kindHint} className={formStyles.hint}>
            {KIND_HINTS[kind]}
          </span>
        </fieldset>
        <div className={styles.importActions}>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Uploading…' : 'Import'}
          </Button>
          {sent !== null ? (
            <progress className={styles.importProgress} aria-label="Upload" max={1} value={sent} />
          ) : null}
        </div>
        <p role="status" className={styles.quiet}>
          {status}
        </p>
      </form>

      <h3 id={listHeadingId} className={styles.subTitle}>
        Latest imports
      </h3>
      {imports.isPending ? (
        <p role="status">Loading the latest imports…</p>
      ) : imports.isError ? (
        <p role="alert">The imports could not be loaded: {imports.error.message}</p>
      ) : imports.data.length === 0 ? (
        <p className={styles.muted}>No file has been imported here yet.</p>
      ) : (
        <ul className={styles.importList} aria-labelledby={listHeadingId}>
          {imports.data.map((entry) => (
            <ImportEntry key={entry.id} entry={entry} />
          ))}
        </ul>
      )}
    </section>
  );
}
