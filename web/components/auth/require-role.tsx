import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { homePathFor, type Role } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { useCurrentUser } from '../../api/session.ts';
import { SimplePage } from '../page/simple-page.tsx';
import { ButtonLink } from '../ui/button.tsx';

/** Navigation state the guard hands to the sign-in screen. */
interface ReturnState {
  from: string;
}

/** The path a guarded screen sent the person from, if it is one of ours. */
export function returnPathFrom(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const { from } = state as ReturnState;
  // Only same-site paths: never an open redirect to another host.
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//')
    ? from
    : undefined;
}

/**
 * Shows `children` only to a signed-in user with a completed profile and one of `roles` (any
 * role when empty). Guests go to sign-in and come back afterwards; someone without the role sees
 * a clear 'not allowed' page. The server enforces the same rules on every call.
 */
export function RequireRole({
  roles = [],
  children,
}: {
  roles?: readonly Role[];
  children: ReactNode;
}) {
  const location = useLocation();
  const { data: user, isPending, isError } = useCurrentUser();

  if (isPending) {
    return (
      <p className="container screen-loading" role="status">
        Loading…
      </p>
    );
  }
  if (isError) {
    return (
      <SimplePage
        title="We could not check your sign-in"
        lead="The server did not answer. Please check your connection and reload the page."
      />
    );
  }
  if (!user) {
    const state: ReturnState = { from: `${location.pathname}${location.search}` };
    return <Navigate to={ROUTES.signIn} replace state={state} />;
  }
  if (!user.profileCompleted) return <Navigate to={ROUTES.signUp} replace />;
  if (roles.length > 0 && !roles.includes(user.role))
    return <NotAllowedPage home={homePathFor(user.role)} />;
  return <>{children}</>;
}

/** A signed-in user reached a screen their role may not use. */
function NotAllowedPage({ home }: { home: string }) {
  return (
    <SimplePage
      eyebrow="Not allowed"
      title="This page is not available to your account"
      lead="Your role does not give access to this screen. If you think it should, please ask the library staff."
      actions={
        <ButtonLink to={home} variant="primary">
          Go to your home
        </ButtonLink>
      }
    />
  );
}
