import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useUnsubscribe } from '../../api/notices.ts';
import { useCurrentUser } from '../../api/session.ts';
import { SimplePage } from '../../components/page/simple-page.tsx';

const FAILED_TITLE = 'This unsubscribe link did not work';
const INCOMPLETE = 'The link has no token: it may have been cut short when it was copied.';

function ChangeItOnAccount() {
  const { data: user } = useCurrentUser();
  return (
    <p>
      Your e-mail choices are on <Link to={ROUTES.account}>My account</Link>.
      {user ? '' : ' You will be asked to sign in first.'}
    </p>
  );
}

/**
 * `/unsubscribe?token=…` (issue 21): an e-mail's one-click unsubscribe. The token is sent once,
 * on load; a mail scanner that fetches the link runs no script, so it unsubscribes nobody.
 * Public: the signed token says who and which kind.
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const unsubscribe = useUnsubscribe();
  const { mutate } = unsubscribe;
  // Once per token, even when React runs the effect twice in development.
  const sent = useRef('');

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    mutate(token);
  }, [token, mutate]);

  if (!token) {
    return (
      <SimplePage title={FAILED_TITLE} lead={INCOMPLETE}>
        <ChangeItOnAccount />
      </SimplePage>
    );
  }
  if (unsubscribe.isSuccess) {
    return (
      <SimplePage title="You are unsubscribed" lead={unsubscribe.data.message}>
        <p>
          Changed your mind? Turn these e-mails back on in{' '}
          <Link to={ROUTES.account}>My account</Link>.
        </p>
      </SimplePage>
    );
  }
  if (unsubscribe.isError) {
    const { error } = unsubscribe;
    return (
      <SimplePage title={FAILED_TITLE}>
        <p role="alert">
          {error instanceof ApiError ? error.message : 'Something went wrong. Please try again.'}
        </p>
        <ChangeItOnAccount />
      </SimplePage>
    );
  }
  return (
    <SimplePage title="Unsubscribing…">
      <p role="status">Turning these e-mails off…</p>
    </SimplePage>
  );
}
