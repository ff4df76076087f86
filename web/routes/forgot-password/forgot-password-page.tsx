import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  forgotPasswordRequestSchema,
  forgotPasswordResponseSchema,
  passwordSchema,
  resetPasswordResponseSchema,
} from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { FormMessage, formStyles, TextField } from '../../components/forms/fields.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

const newPasswordSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((values) => values.password === values.confirm, {
    path: ['confirm'],
    message: 'The passwords do not match',
  });

const INVALID_LINK = 'This reset link is invalid or has expired. Please ask for a new one.';

function failureText(error: unknown): string {
  if (error instanceof ApiError && error.fromServer) {
    return error.fieldErrors[0]?.message ?? error.message;
  }
  return 'There is some Network issue please try after some time.';
}

/**
 * `/forgot-password`: ask for a reset link by e-mail; the link brings the person back here with a
 * token to choose a new password.
 */
export function ForgotPasswordPage() {
  useDocumentTitle('Reset your password');
  const [params] = useSearchParams();
  const token = params.get('token');
  const linkFailed = params.get('error') !== null;
  return (
    <div className={formStyles.wrap}>
      <div className="container">
        <section className={formStyles.card} aria-labelledby="reset-title">
          <h1 id="reset-title" className={formStyles.title}>
            Reset your password
          </h1>
          {token ? <NewPasswordForm token={token} /> : <RequestLinkForm linkFailed={linkFailed} />}
        </section>
      </div>
    </div>
  );
}

function RequestLinkForm({ linkFailed }: { linkFailed: boolean }) {
  const [sent, setSent] = useState('');
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email: '' },
  });

  const onSubmit = async (values: { email: string }) => {
    setFailure('');
    try {
      setSent(
        (await apiPost('/users/forgot-password', forgotPasswordResponseSchema, values)).message,
      );
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  if (sent) {
    return (
      <>
        <FormMessage kind="info">{sent}</FormMessage>
        <p className={formStyles.subtitle}>
          <Link to={ROUTES.signIn}>Back to sign in</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <p className={formStyles.subtitle}>
        Enter the e-mail of your account and we will send you a link to choose a new password.
      </p>
      <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        {linkFailed ? <FormMessage>{INVALID_LINK}</FormMessage> : null}
        <FormMessage>{failure}</FormMessage>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email}
          required
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Send reset link'}
        </Button>
      </form>
      <p className={formStyles.subtitle}>
        Remembered it? <Link to={ROUTES.signIn}>Sign in</Link>
      </p>
    </>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<z.infer<typeof newPasswordSchema>>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const onSubmit = async (values: z.infer<typeof newPasswordSchema>) => {
    setFailure('');
    try {
      setDone(
        (
          await apiPost('/users/reset-password', resetPasswordResponseSchema, {
            token,
            password: values.password,
          })
        ).message,
      );
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  if (done) {
    return (
      <>
        <FormMessage kind="info">{done}</FormMessage>
        <ButtonLink to={ROUTES.signIn} variant="primary">
          Sign In
        </ButtonLink>
      </>
    );
  }
  return (
    <>
      <p className={formStyles.subtitle}>
        Choose a new password. Every device signed in to your account will be signed out.
      </p>
      <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormMessage>{failure}</FormMessage>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password}
          hint="Password must be at least 8 characters"
          required
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          registration={register('confirm')}
          error={errors.confirm}
          required
        />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Saving…' : 'Set new password'}
        </Button>
      </form>
    </>
  );
}
