import { useSearchParams } from 'react-router';
import { EMAIL_VERIFIED_QUERY, VERIFICATION_LINK_HOURS } from '#contract/http/users.ts';
import { useCurrentUser, useResendVerificationEmail } from '../../api/session.ts';
import { FormMessage } from '../forms/fields.tsx';
import { Button } from '../ui/button.tsx';
import styles from './verify-email-notice.module.css';

/** What a verification link that did not work says, by better-auth's `error` code. */
function linkErrorMessage(code: string): string {
  return code === 'TOKEN_EXPIRED'
    ? 'That verification link has expired. Send yourself a new one below.'
    : 'That verification link did not work. Send yourself a new one below and open the newest mail.';
}

/**
 * The e-mail notice of a home (decision 026): while the address is not verified, where the link
 * went, what waits for it, and a button that sends it again; after the mailed link brought the
 * person here (`?verified=email`), that it worked, or why it did not.
 */
export function VerifyEmailNotice() {
  const { data: user } = useCurrentUser();
  const [params] = useSearchParams();
  const resend = useResendVerificationEmail();
  if (!user) return null;
  const fromLink = params.get(EMAIL_VERIFIED_QUERY.name) === EMAIL_VERIFIED_QUERY.value;
  const linkError = fromLink ? params.get('error') : null;

  if (user.emailVerified !== false) {
    return fromLink && !linkError ? (
      <div className={`container ${styles.notice}`}>
        <FormMessage kind="info">
          Your e-mail address is verified. You can now reserve books, request resources and post in
          the discussion forum.
        </FormMessage>
      </div>
    ) : null;
  }

  return (
    <section className={`container ${styles.notice}`} aria-labelledby="verify-email-title">
      <div className={styles.box}>
        <h2 id="verify-email-title" className={styles.title}>
          Verify your e-mail address
        </h2>
        {linkError ? <FormMessage>{linkErrorMessage(linkError)}</FormMessage> : null}
        <p className={styles.text}>
          Check your inbox: we sent a link to <strong className={styles.email}>{user.email}</strong>
          . Open it within {VERIFICATION_LINK_HOURS} hours to verify your address. Until then you
          can search and read, but not reserve books, request resources or post in the discussion
          forum. No mail? Look in your spam folder, or send the link again.
        </p>
        <Button
          variant="outline"
          onClick={() => {
            if (!resend.isPending) resend.mutate();
          }}
        >
          Send the link again
        </Button>
        <FormMessage kind="info">{resend.data?.message}</FormMessage>
        <FormMessage>{resend.error?.message}</FormMessage>
      </div>
    </section>
  );
}
