/** The space of the current URL, read after hydration (the pre-rendered shell has no URL). */
import { useEffect, useState } from 'react';
import { paramsOf } from '../../lib/route-params.ts';

/** undefined before hydration, null when the URL names no space. */
export function useSpaceId(): string | null | undefined {
  const [spaceId, setSpaceId] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    setSpaceId(paramsOf(location.pathname).space_id ?? null);
  }, []);
  return spaceId;
}
