import { useSignInProviders } from '../../api/session.ts';
import { Button } from '../ui/button.tsx';
import { formStyles } from '../forms/fields.tsx';

/**
 * 'Continue with Google'. Visibly disabled, with the reason, until the library configures Google
 * sign-in on the server.
 */
export function ContinueWithGoogle() {
  const { data } = useSignInProviders();
  const enabled = data?.google === true;
  return (
    <div className={formStyles.field}>
      <Button
        variant="outline"
        disabled={!enabled}
        aria-describedby={enabled ? undefined : 'google-unavailable'}
      >
        Continue with Google
      </Button>
      {enabled ? null : (
        <span id="google-unavailable" className={formStyles.hint}>
          Google sign-in is not set up for this library yet. Use your e-mail and password.
        </span>
      )}
    </div>
  );
}
