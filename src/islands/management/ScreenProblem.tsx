import { useEffect } from 'react';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { signInUrl } from '../../stores/session.ts';
import { Alert } from '../shared/Alert.tsx';
import { navigate } from './navigate.ts';

interface Props {
  readonly error: unknown;
  readonly onRetry: () => void;
}

/** Message shown to a non-member, the same as for a space that does not exist (PRODUCT.md §2). */
export const NOT_A_MEMBER = 'This space does not exist or you are not a member.';

/** Why a management screen could not load: signed out (off to sign in), not a member, or a failure with Retry. */
export function ScreenProblem({ error, onRetry }: Props) {
  const signedOut = error instanceof ApiError && error.status === 401;
  useEffect(() => {
    if (signedOut) navigate(signInUrl());
  }, [signedOut]);
  if (signedOut) return <p className="muted">You are signed out; taking you to sign in…</p>;
  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="card panel">
        <p>{NOT_A_MEMBER}</p>
        <a className="button secondary" href="/spaces">
          Go to your spaces
        </a>
      </div>
    );
  }
  return (
    <Alert tone="error">
      <div className="row">
        <span>{errorMessage(error)}</span>
        <button type="button" className="button secondary" onClick={onRetry}>
          Retry
        </button>
      </div>
    </Alert>
  );
}

/** The error a screen raises when the URL names no space. */
export function noSpaceError(): ApiError {
  return new ApiError(404, 'not_found', NOT_A_MEMBER);
}
