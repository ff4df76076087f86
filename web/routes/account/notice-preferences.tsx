import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import {
  NOTICE_KIND_LABELS,
  NOTICE_KINDS,
  type NoticeKind,
  type NoticePreferences,
} from '#contract/http/notices.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useNoticePreferences, useSaveNoticePreferences } from '../../api/notices.ts';
import { FormMessage } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './account.module.css';
import own from './notice-preferences.module.css';

type EmailChoices = Record<NoticeKind, boolean>;

const choicesOf = (preferences: NoticePreferences): EmailChoices =>
  Object.fromEntries(
    NOTICE_KINDS.map((kind) => [kind, preferences.email[kind] ?? false]),
  ) as EmailChoices;

function PreferencesForm({ saved }: { saved: EmailChoices }) {
  const save = useSaveNoticePreferences();
  const [choices, setChoices] = useState(saved);
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  const changed = NOTICE_KINDS.some((kind) => choices[kind] !== saved[kind]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone('');
    setFailure('');
    save.mutate(choices, {
      onSuccess: (answer) => {
        setChoices(choicesOf(answer));
        setDone('Your e-mail choices are saved.');
      },
      onError: (error) =>
        setFailure(
          error instanceof ApiError ? error.message : 'Something went wrong. Please try again.',
        ),
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <ul className={own.kinds}>
        {NOTICE_KINDS.map((kind) => (
          <li key={kind}>
            <fieldset className={own.kind}>
              <legend className={own.kindLabel}>{NOTICE_KIND_LABELS[kind]}</legend>
              <label className={own.check}>
                <input
                  type="checkbox"
                  checked={choices[kind]}
                  onChange={(event) => {
                    const on = event.currentTarget.checked;
                    setDone('');
                    setChoices((current) => ({ ...current, [kind]: on }));
                  }}
                />
                Also by e-mail
              </label>
            </fieldset>
          </li>
        ))}
      </ul>
      <FormMessage>{failure}</FormMessage>
      <FormMessage kind="info">{done}</FormMessage>
      <div>
        <Button type="submit" disabled={save.isPending || !changed}>
          {save.isPending ? 'Saving…' : 'Save e-mail choices'}
        </Button>
      </div>
    </form>
  );
}

/**
 * My account's notice preferences (issue 21): in the app every notice is kept; per kind, a
 * checkbox says whether it also comes by e-mail, saved with `PUT /api/users/me/notices`.
 */
export function NoticePreferencesSection() {
  const preferences = useNoticePreferences();
  return (
    <section className={styles.section} aria-labelledby="notice-preferences-title">
      <h2 id="notice-preferences-title" className={styles.sectionTitle}>
        Notices
      </h2>
      <p className={styles.muted}>
        Every notice is always shown in the app, under the bell and on{' '}
        <Link to={ROUTES.notices}>your notices</Link>. Choose which ones also come by e-mail.
      </p>
      {preferences.isPending ? (
        <p role="status">Loading your e-mail choices…</p>
      ) : preferences.isError ? (
        <p role="alert">Your e-mail choices could not be loaded. Please reload the page.</p>
      ) : (
        <PreferencesForm saved={choicesOf(preferences.data)} />
      )}
    </section>
  );
}
