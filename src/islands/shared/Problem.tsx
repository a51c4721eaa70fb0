/** The one way a screen or panel shows why something could not load: signed out, not found, or a failure with Retry. */
import { type ReactNode, useEffect } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { signInUrl } from '../../stores/session.ts';
import { Alert } from './Alert.tsx';
import { navigate } from './navigate.ts';
import { RetryButton } from './RetryButton.tsx';

interface Props {
  readonly error: unknown;
  readonly onRetry: () => void;
  /** What a 404 means here: a sentence, or a heading and text; by default, the space's own message. */
  readonly notFound?: ReactNode;
  /** Where a 404 sends the user on, with its label; by default, the list of spaces; null for no link. */
  readonly back?: { readonly href: string; readonly label: string } | null | undefined;
}

/** Message shown to a non-member, the same as for a space that does not exist (docs/product.md §2). */
export const NOT_A_MEMBER = 'This space does not exist or you are not a member.';

/** Why something could not load: signed out (off to sign in and back), not found, or a failure with Retry. */
export function Problem({ error, onRetry, notFound = NOT_A_MEMBER, back }: Props) {
  const signedOut = error instanceof ApiError && error.status === 401;
  useEffect(() => {
    if (signedOut) navigate(signInUrl());
  }, [signedOut]);
  if (signedOut) return <p className="muted">You are signed out; taking you to sign in…</p>;
  if (error instanceof ApiError && error.status === 404) {
    const link = back === undefined ? { href: '/spaces', label: 'Go to your spaces' } : back;
    return (
      <div className="card panel">
        {typeof notFound === 'string' ? <p>{notFound}</p> : notFound}
        {link && (
          <a className="button secondary" href={link.href}>
            {link.label}
          </a>
        )}
      </div>
    );
  }
  return (
    <Alert tone="error">
      <div className="row">
        <span>{errorMessage(error)}</span>
        <RetryButton onRetry={onRetry} />
      </div>
    </Alert>
  );
}

/** The error a screen raises when the URL names no space. */
export function noSpaceError(): ApiError {
  return new ApiError(404, 'not_found', NOT_A_MEMBER);
}
