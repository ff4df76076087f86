import { useState } from 'react';
import { providerRedirectSchema } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { useSignInProviders } from '../../api/session.ts';
import { FormMessage, formStyles } from '../forms/fields.tsx';
import { Button } from '../ui/button.tsx';

/** Where a provider sends the browser back: existing accounts to sign-in (which lands them by role), new ones to complete their profile. */
const RETURN = {
  callbackURL: ROUTES.signIn,
  newUserCallbackURL: ROUTES.signUp,
  errorCallbackURL: ROUTES.signIn,
};

/**
 * 'Continue with Google' (visibly disabled, with the reason, until the library configures it)
 * and 'Continue with {institution}' when the library has its own OpenID Connect provider.
 */
export function ProviderButtons() {
  const { data } = useSignInProviders();
  const [failure, setFailure] = useState('');
  const [leaving, setLeaving] = useState(false);
  const google = data?.google === true;

  const start = async (kind: 'google' | 'oidc') => {
    setFailure('');
    setLeaving(true);
    try {
      // The institution's provider is registered with better-auth like a social one.
      const { url } = await apiPost('/auth/sign-in/social', providerRedirectSchema, {
        provider: kind,
        ...RETURN,
      });
      window.location.assign(url);
    } catch (error) {
      setLeaving(false);
      const reason = error instanceof ApiError ? error.message : 'unknown error';
      setFailure(
        kind === 'google'
          ? `Google Sign-In failed: ${reason}`
          : `Sign-in with ${data?.oidc?.label} failed: ${reason}`,
      );
    }
  };

  return (
    <div className={formStyles.form}>
      <FormMessage>{failure}</FormMessage>
      <div className={formStyles.field}>
        <Button
          variant="outline"
          disabled={!google || leaving}
          aria-describedby={google ? undefined : 'google-unavailable'}
          onClick={() => void start('google')}
        >
          Continue with Google
        </Button>
        {google ? null : (
          <span id="google-unavailable" className={formStyles.hint}>
            Google sign-in is not set up for this library yet. Use your e-mail and password.
          </span>
        )}
      </div>
      {data?.oidc ? (
        <Button variant="outline" disabled={leaving} onClick={() => void start('oidc')}>
          Continue with {data.oidc.label}
        </Button>
      ) : null}
    </div>
  );
}

/** What the sign-in screen says when a provider sent the person back with an error. */
export function providerErrorMessage(code: string): string {
  if (code === 'account_not_linked') {
    return 'An account with this e-mail already exists. Sign in with your password: a provider cannot take over an existing account.';
  }
  return `Google Sign-In failed: ${code.replace(/_/g, ' ')}`;
}
