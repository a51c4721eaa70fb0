/** The space and source of the current URL, read after hydration (the pre-rendered shell has no URL). */
import { useEffect, useState } from 'react';
import { paramsOf } from '../../lib/route-params.ts';

export interface SourceRoute {
  readonly spaceId: string | null;
  readonly sourceId: string | null;
}

/** undefined before hydration; ids are null when the URL does not name them. */
export function useSourceRoute(): SourceRoute | undefined {
  const [route, setRoute] = useState<SourceRoute | undefined>(undefined);
  useEffect(() => {
    const params = paramsOf(location.pathname);
    setRoute({ spaceId: params.space_id ?? null, sourceId: params.id ?? null });
  }, []);
  return route;
}

/** Path of a source's page. */
export function sourcePath(spaceId: string, sourceId: string): string {
  return `/console/siem/manage/${encodeURIComponent(spaceId)}/${encodeURIComponent(sourceId)}`;
}

/** Path of the event log, where the sources are listed. */
export function eventLogPath(spaceId: string): string {
  return `/console/siem/${encodeURIComponent(spaceId)}`;
}
