import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { postBookRequestSchema, type PostBookRequest } from '#contract/http/catalogue.ts';
import type { ItemUpdate, ManagedItem } from '#contract/http/items.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useMyItems, useSetWithdrawn, useUpdateItem } from '../../api/items.ts';
import { CourseMaterialFields } from '../../components/forms/course-material-fields.tsx';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './my-materials.module.css';

/** The search parameter naming the material whose form is open, so Back closes it. */
export const EDIT_PARAM = 'edit';

// A publication date is a calendar day: read and shown in UTC, it never shifts by a day.
const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** `Sep 1, 2026` for `2026-09-01`; the text itself when it is no date. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dayFormat.format(date);
}

/** A material's six publish fields, as the form shows them. */
export function publishFieldsOf(item: ManagedItem): PostBookRequest {
  return {
    title: item.title,
    author: item.authors.join(', '),
    publishedDate: item.publishedDate ?? '',
    driveLink: item.driveLink ?? item.url ?? '',
    instituteName: item.institution ?? '',
    genre: item.genre ?? item.subjects[0] ?? '',
  };
}

/** The item change the six fields make (the year follows the date, as on publishing). */
export function patchOf(values: PostBookRequest): ItemUpdate {
  return {
    title: values.title,
    authors: [values.author],
    publishedDate: values.publishedDate,
    year: Number(values.publishedDate.slice(0, 4)),
    driveLink: values.driveLink,
    institution: values.instituteName,
    genre: values.genre,
  };
}

/** The form field each item field the server may name belongs to. */
const FORM_FIELD: Record<string, keyof PostBookRequest> = {
  title: 'title',
  authors: 'author',
  publishedDate: 'publishedDate',
  year: 'publishedDate',
  driveLink: 'driveLink',
  institution: 'instituteName',
  genre: 'genre',
};

/** Closes the open form: Back, when Edit opened it here, or the same page without it. */
function useCloseForm(): () => void {
  const location = useLocation();
  const navigate = useNavigate();
  const [, setSearchParams] = useSearchParams();
  return () => {
    if ((location.state as { editing?: boolean } | null)?.editing) void navigate(-1);
    else setSearchParams({}, { replace: true });
  };
}

const failureText = (error: unknown) =>
  error instanceof ApiError && error.fromServer
    ? error.message
    : 'The server could not be reached. Check your connection and try again.';

/**
 * "Your course materials" on the faculty home: what the caller published, newest first, each
 * with Edit (an inline form opened by `?edit=<id>`, so Back closes it) and Unpublish (after a
 * question) or Publish again.
 */
export function MyMaterialsSection() {
  const materials = useMyItems();
  const [searchParams] = useSearchParams();
  const editing = searchParams.get(EDIT_PARAM);
  const [status, setStatus] = useState('');

  return (
    <section className={`container ${styles.section}`} aria-labelledby="my-materials-title">
      <div className={styles.header}>
        <h2 id="my-materials-title" className={styles.title}>
          Your course materials
        </h2>
        <ButtonLink to={ROUTES.publish} variant="outline">
          Publish another
        </ButtonLink>
      </div>
      <p role="status" className={status ? `${formStyles.info} ${styles.status}` : styles.quiet}>
        {status}
      </p>
      {materials.isPending ? (
        <p className={styles.note}>Loading your course materials…</p>
      ) : materials.isError ? (
        <div className={styles.note}>
          <FormMessage>
            {`Your course materials could not be loaded: ${failureText(materials.error)}`}
          </FormMessage>
          <Button variant="outline" onClick={() => void materials.refetch()}>
            Try again
          </Button>
        </div>
      ) : materials.data.length === 0 ? (
        <p className={styles.note}>
          You have not published any course materials yet. Those you publish are listed here, to
          edit or unpublish.
        </p>
      ) : (
        <ul className={styles.list}>
          {materials.data.map((item) => (
            <MaterialRow
              key={item.id}
              item={item}
              editing={editing === item.id}
              onStatus={setStatus}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function MaterialRow({
  item,
  editing,
  onStatus,
}: {
  item: ManagedItem;
  editing: boolean;
  onStatus: (status: string) => void;
}) {
  const [, setSearchParams] = useSearchParams();
  const closeForm = useCloseForm();
  const setWithdrawn = useSetWithdrawn(item.id);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState('');
  const unpublished = item.withdrawnAt !== undefined;
  const titleId = `material-${item.id}-title`;

  const change = (withdraw: boolean) => {
    setFailure('');
    setWithdrawn.mutate(withdraw, {
      onSuccess: (saved) => {
        setConfirming(false);
        onStatus(
          withdraw
            ? `“${saved.title}” is unpublished: students no longer see it.`
            : `“${saved.title}” is published again: students see it in Course Materials.`,
        );
      },
      onError: (error) => setFailure(failureText(error)),
    });
  };

  return (
    <li className={styles.item} data-unpublished={unpublished || undefined}>
      <div className={styles.summary}>
        <div className={styles.text}>
          <h3 id={titleId} className={styles.itemTitle}>
            {item.title}
          </h3>
          <p className={styles.meta}>
            {item.publishedDate
              ? `Publication date: ${formatDay(item.publishedDate)}`
              : 'No publication date'}
            {unpublished ? (
              <>
                {' '}
                <StatusBadge label="Unpublished" tone="negative" />
              </>
            ) : null}
          </p>
        </div>
        <div className={styles.actions}>
          <Button
            variant="outline"
            aria-describedby={titleId}
            aria-expanded={editing}
            aria-controls={editing ? `material-${item.id}-form` : undefined}
            onClick={() =>
              editing
                ? closeForm()
                : setSearchParams({ [EDIT_PARAM]: item.id }, { state: { editing: true } })
            }
          >
            {editing ? 'Close' : 'Edit'}
          </Button>
          {unpublished ? (
            <Button
              variant="primary"
              aria-describedby={titleId}
              disabled={setWithdrawn.isPending}
              onClick={() => change(false)}
            >
              {setWithdrawn.isPending ? 'Publishing…' : 'Publish again'}
            </Button>
          ) : (
            <Button
              variant="danger"
              aria-describedby={titleId}
              onClick={() => {
                setFailure('');
                setConfirming(true);
              }}
            >
              Unpublish
            </Button>
          )}
        </div>
      </div>
      {!confirming ? (
        <FormMessage>{failure ? `Nothing changed: ${failure}` : ''}</FormMessage>
      ) : null}
      {editing ? <MaterialForm key={item.id} item={item} onStatus={onStatus} /> : null}
      <Dialog
        open={confirming}
        title={`Unpublish “${item.title}”?`}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <Button variant="outline" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => change(true)} disabled={setWithdrawn.isPending}>
              {setWithdrawn.isPending ? 'Unpublishing…' : 'Unpublish'}
            </Button>
          </>
        }
      >
        <p>Students will no longer see it in Course Materials or find it in searches.</p>
        <p>It stays in your list here, and you can publish it again at any time.</p>
        <FormMessage>{failure ? `Nothing changed: ${failure}` : ''}</FormMessage>
      </Dialog>
    </li>
  );
}

function MaterialForm({
  item,
  onStatus,
}: {
  item: ManagedItem;
  onStatus: (status: string) => void;
}) {
  const update = useUpdateItem(item.id);
  const close = useCloseForm();
  const [saved, setSaved] = useState('');
  const [failure, setFailure] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PostBookRequest>({
    resolver: zodResolver(postBookRequestSchema),
    defaultValues: publishFieldsOf(item),
  });

  // Opened by Edit: the form takes the focus, so the keyboard goes on from here.
  useEffect(() => heading.current?.focus(), []);

  const onSubmit = async (values: PostBookRequest) => {
    setSaved('');
    setFailure('');
    try {
      const result = await update.mutateAsync(patchOf(values));
      reset(publishFieldsOf(result));
      setSaved(`Changes saved to “${result.title}”.`);
      onStatus('');
    } catch (error) {
      if (error instanceof ApiError) {
        for (const field of error.fieldErrors) {
          const name = FORM_FIELD[field.path.split('.')[0] ?? ''];
          if (name) setError(name, { message: field.message });
        }
      }
      setFailure(`Not saved: ${failureText(error)}`);
    }
  };

  const formTitle = `material-${item.id}-form-title`;
  return (
    <div id={`material-${item.id}-form`} className={styles.panel}>
      <h4 id={formTitle} ref={heading} tabIndex={-1} className={styles.panelTitle}>
        Edit “{item.title}”
      </h4>
      <form
        className={formStyles.form}
        aria-labelledby={formTitle}
        onSubmit={handleSubmit(onSubmit)}
        noValidate
      >
        <FormMessage>{failure}</FormMessage>
        <CourseMaterialFields register={register} errors={errors} />
        <p role="status" className={saved && !isDirty ? formStyles.info : styles.quiet}>
          {saved && !isDirty ? saved : ''}
        </p>
        <div className={styles.formActions}>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save changes'}
          </Button>
          <Button type="button" variant="outline" onClick={close}>
            {saved && !isDirty ? 'Done' : 'Cancel'}
          </Button>
        </div>
      </form>
    </div>
  );
}
