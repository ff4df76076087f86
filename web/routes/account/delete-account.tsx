import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { ROUTES } from '#contract/routes.ts';
import type { AccountDeletionPreview, CurrentUser } from '#contract/http/users.ts';
import { useAccountDeletionPreview, useDeleteAccount } from '../../api/account-deletion.ts';
import { ApiError } from '../../api/client.ts';
import { formatDate } from '../../components/records/format.ts';
import { FormMessage, TextField } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './account.module.css';
import own from './delete-account.module.css';

/** What the landing page says to someone whose account was just deleted (router state). */
export interface AccountDeletedState {
  accountDeleted: string;
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${count} ${count === 1 ? one : many}`;

/** The consequences, one plain sentence each, from the server's count of them. */
function consequences(preview: AccountDeletionPreview): string[] {
  const lines = [
    preview.reservations > 0
      ? `Your ${plural(preview.reservations, 'active reservation')} ${preview.reservations === 1 ? 'is' : 'are'} cancelled; the copies go to the next person waiting.`
      : 'You have no active reservations to cancel.',
    preview.holds > 0
      ? `You give up your place in ${plural(preview.holds, 'waiting list')}.`
      : 'You are in no waiting list.',
    preview.requests > 0
      ? `The ${plural(preview.requests, 'resource request')} you filed ${preview.requests === 1 ? 'is' : 'are'} removed.`
      : 'You have filed no resource requests.',
    preview.roomsCreated > 0
      ? `The ${plural(preview.roomsCreated, 'forum room')} you created ${preview.roomsCreated === 1 ? 'is' : 'are'} removed, with every message in ${preview.roomsCreated === 1 ? 'it' : 'them'}, other people’s too.`
      : 'You created no forum rooms.',
    preview.messagesSent > 0
      ? `Your ${plural(preview.messagesSent, 'message')} in other people’s forum rooms stay, shown as from “${preview.messagesShownAs}”.`
      : `Any message you left in other people’s forum rooms would stay, shown as from “${preview.messagesShownAs}”.`,
  ];
  if (preview.materialsPublished > 0) {
    lines.push(
      `The ${plural(preview.materialsPublished, 'course material')} you published stay${preview.materialsPublished === 1 ? 's' : ''} in the catalogue.`,
    );
  }
  lines.push(
    'The library’s record of your past loans stays, without your name.',
    'You are signed out everywhere, and this cannot be undone.',
  );
  return lines;
}

const confirmSchema = z.object({
  secret: z.string().trim().min(1, 'Fill this in to confirm'),
});
type ConfirmForm = z.infer<typeof confirmSchema>;

function ConfirmDeletion({
  user,
  preview,
}: {
  user: CurrentUser;
  preview: AccountDeletionPreview;
}) {
  const navigate = useNavigate();
  const remove = useDeleteAccount();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState('');
  const byPassword = preview.confirmWith === 'password';
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors },
  } = useForm<ConfirmForm>({ resolver: zodResolver(confirmSchema), defaultValues: { secret: '' } });

  const onSubmit = handleSubmit(() => {
    setFailure('');
    setAsking(true);
  });

  const confirm = () => {
    const secret = getValues('secret');
    remove.mutate(byPassword ? { password: secret } : { confirmEmail: secret }, {
      onSuccess: (answer) => {
        setAsking(false);
        const state: AccountDeletedState = { accountDeleted: answer.message };
        void navigate(ROUTES.landing, { replace: true, state });
      },
      onError: (error) => {
        setAsking(false);
        if (!(error instanceof ApiError)) {
          setFailure('Something went wrong. Please try again.');
          return;
        }
        const field = error.fieldErrors.find(
          (each) => each.path === (byPassword ? 'password' : 'confirmEmail'),
        );
        if (field) setError('secret', { message: field.message });
        else setFailure(error.message);
      },
    });
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      {byPassword ? (
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          registration={register('secret')}
          error={errors.secret}
        />
      ) : (
        <TextField
          label="Your e-mail address"
          type="email"
          autoComplete="off"
          hint={`You sign in without a password here, so type ${user.email} to confirm.`}
          registration={register('secret')}
          error={errors.secret}
        />
      )}
      <FormMessage>{failure}</FormMessage>
      <div>
        <Button type="submit" variant="danger" disabled={remove.isPending}>
          {remove.isPending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </div>
      <Dialog
        open={asking}
        alert
        title="Delete your account for good?"
        onClose={() => setAsking(false)}
        actions={
          <>
            <Button variant="outline" data-autofocus onClick={() => setAsking(false)}>
              Keep my account
            </Button>
            <Button variant="danger" onClick={confirm} disabled={remove.isPending}>
              Yes, delete my account
            </Button>
          </>
        }
      >
        <p className={own.dialogText}>
          Your account, {user.email}, is deleted at once, as listed above. It cannot be undone.
        </p>
      </Dialog>
    </form>
  );
}

/**
 * "Delete my account" on My account (issue 21): first says plainly what deleting would do, from
 * `GET /api/users/me/deletion` (books on loan stop it), then asks for the password (or, without
 * one, the e-mail address) and a second yes; on success the person lands on the landing page.
 */
export function DeleteAccountSection({ user }: { user: CurrentUser }) {
  const preview = useAccountDeletionPreview();
  return (
    <section className={`${styles.section} ${own.section}`} aria-labelledby="delete-title">
      <h2 id="delete-title" className={styles.sectionTitle}>
        Delete my account
      </h2>
      {preview.isPending ? (
        <p className={styles.muted}>Checking what deleting your account would do…</p>
      ) : preview.isError || !preview.data ? (
        <FormMessage>
          What deleting your account would do could not be loaded. Please reload the page.
        </FormMessage>
      ) : (
        <Explained user={user} preview={preview.data} />
      )}
    </section>
  );
}

function Explained({ user, preview }: { user: CurrentUser; preview: AccountDeletionPreview }) {
  if (preview.lastLibrarian) {
    return (
      <p className={styles.muted}>
        You are the last librarian: make someone else a librarian first, or nobody could manage the
        library.
      </p>
    );
  }
  if (preview.openLoans.length > 0) {
    const count = preview.openLoans.length;
    return (
      <>
        <p>
          You have {plural(count, 'book')} on loan. Return {count === 1 ? 'it' : 'them'} at the desk
          first; then you can delete your account here.
        </p>
        <ul className={own.list}>
          {preview.openLoans.map((loan, index) => (
            <li key={index}>
              <strong>{loan.title}</strong>, due {formatDate(loan.dueAt)}
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <>
      <p>Deleting your account removes your profile and sign-in. What happens to the rest:</p>
      <ul className={own.list}>
        {consequences(preview).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <ConfirmDeletion user={user} preview={preview} />
    </>
  );
}
