/** A refusal past a plan limit (402 `plan_limit`): its message and a link to the plans of the current space. */
import { useStore } from '@nanostores/react';
import { upgradeRoute } from '../../../contract/constants/limits.ts';
import { ApiError } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import { $spaceId } from '../../stores/route.ts';

/** Whether an error is a refusal past a plan limit, which `PlanLimitNotice` shows. */
export function isPlanLimit(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'plan_limit';
}

interface Props {
  readonly error: ApiError;
}

/** "Firewalls on Free: 1 of 1 used; Pro allows 5. See plans" — the link opens the space's upgrade page. */
export function PlanLimitNotice({ error }: Props) {
  const spaceId = useStore($spaceId);
  return (
    <span className="plan-limit">
      {error.message}
      {spaceId ? (
        <>
          {' '}
          <a href={buildPath(upgradeRoute, { space_id: spaceId })}>See plans</a>
        </>
      ) : null}
    </span>
  );
}
