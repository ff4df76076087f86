import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { CHAT_USERNAME_MAX, chatUsernameSchema } from '#contract/socket/chat.ts';
import { useSaveChatUsername } from '../../api/chat.ts';
import { ApiError } from '../../api/client.ts';
import { FormMessage, TextField } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './discussion-forum.module.css';

type UsernameForm = { username: string };

function failureText(error: unknown): string {
  return error instanceof ApiError && error.fromServer
    ? error.message
    : 'The username was not saved: the server could not be reached. Please try again.';
}

/**
 * The forum's 'Choose a username' card. The name is saved on the profile (not in this browser),
 * so it survives reloads and follows the person to other devices.
 */
export function UsernameCard({
  initial,
  onSaved,
  onCancel,
  focusSignal = 0,
}: {
  /** The prefilled name: the chosen one, else the first name. */
  initial: string;
  onSaved: (username: string) => void;
  /** Offered when changing an existing name. */
  onCancel?: () => void;
  /** Each change moves focus to the name field (someone tried to join without a name). */
  focusSignal?: number;
}) {
  const save = useSaveChatUsername();
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<UsernameForm>({
    resolver: zodResolver(chatUsernameSchema),
    defaultValues: { username: initial },
  });

  useEffect(() => {
    if (focusSignal > 0) setFocus('username');
  }, [focusSignal, setFocus]);

  const onSubmit = (values: UsernameForm) =>
    save.mutate(values.username, { onSuccess: ({ username }) => onSaved(username) });

  return (
    <section className={styles.card} aria-labelledby="username-title">
      <h2 id="username-title" className={styles.cardTitle}>
        Choose a username
      </h2>
      <p className={styles.muted}>Other members see this name next to your messages.</p>
      <form className={styles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        <TextField
          label="Username"
          registration={register('username')}
          error={errors.username}
          maxLength={CHAT_USERNAME_MAX}
          autoComplete="nickname"
          // Changing the name was asked for: start typing at once.
          autoFocus={onCancel !== undefined}
        />
        <FormMessage>{save.isError ? failureText(save.error) : ''}</FormMessage>
        <div className={styles.actions}>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Continue'}
          </Button>
          {onCancel ? (
            <Button variant="ghost" onClick={onCancel}>
              Cancel<span className="visually-hidden"> changing the username</span>
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
