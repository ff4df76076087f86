import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { homePathFor, loginRequestSchema, loginResponseSchema } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { useCurrentUser, useRefreshSession } from '../../api/session.ts';
import { ProviderButtons, providerErrorMessage } from '../../components/auth/provider-button.tsx';
import { FormMessage, formStyles, TextField } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { returnPathFrom } from '../../components/auth/require-role.tsx';

type LoginInput = z.input<typeof loginRequestSchema>;
type Login = z.output<typeof loginRequestSchema>;

/** `/signin`: e-mail and password (or Google), then the screen the person came for or their home. */
export function SignInPage() {
  useDocumentTitle('Sign in');
  const navigate = useNavigate();
  const location = useLocation();
  const { data: user } = useCurrentUser();
  const refreshSession = useRefreshSession();
  const [failure, setFailure] = useState('');
  const from = returnPathFrom(location.state);
  const [params] = useSearchParams();
  const providerError = params.get('error');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, Login>({
    resolver: zodResolver(loginRequestSchema),
    defaultValues: { email: '', password: '', rememberMe: false },
  });

  if (user && !isSubmitting) {
    if (!user.profileCompleted) return <Navigate to={ROUTES.signUp} replace />;
    return <Navigate to={from ?? homePathFor(user.role)} replace />;
  }

  const onSubmit = async (values: Login) => {
    setFailure('');
    try {
      const result = await apiPost('/users/login', loginResponseSchema, values);
      if (!result.success || !result.payload) {
        setFailure('Invalid credentials');
        return;
      }
      await refreshSession();
      await navigate(from ?? homePathFor(result.payload.role), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setFailure('Invalid credentials');
      else
        setFailure(
          error instanceof ApiError && error.fromServer ? error.message : 'Something went wrong',
        );
    }
  };

  return (
    <div className={formStyles.wrap}>
      <div className="container">
        <section className={formStyles.card} aria-labelledby="sign-in-title">
          <h1 id="sign-in-title" className={formStyles.title}>
            Sign in
          </h1>
          <p className={formStyles.subtitle}>Welcome back to Digi Library.</p>
          {from ? <FormMessage kind="info">Please sign in to continue.</FormMessage> : null}
          <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
            <FormMessage>
              {failure || (providerError ? providerErrorMessage(providerError) : '')}
            </FormMessage>
            <TextField
              label="Email"
              type="email"
              autoComplete="email"
              registration={register('email')}
              error={errors.email}
              required
            />
            <TextField
              label="Password"
              type="password"
              autoComplete="current-password"
              registration={register('password')}
              error={errors.password}
              required
            />
            <div className={formStyles.links}>
              <label className={formStyles.check}>
                <input type="checkbox" {...register('rememberMe')} />
                Remember me
              </label>
              <Link to={ROUTES.forgotPassword}>Forgot password?</Link>
            </div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Signing in…' : 'Sign In'}
            </Button>
          </form>
          <p className={formStyles.divider}>or</p>
          <ProviderButtons />
          <p className={formStyles.subtitle}>
            No account yet? <Link to={ROUTES.signUp}>Sign up</Link>
          </p>
        </section>
      </div>
    </div>
  );
}
