/** The explore page's small hooks: the viewed range and values in the URL, auto refresh, kiosk mode, leave warning. */
import { type RefObject, useCallback, useEffect, useState } from 'react';
import type { DashboardModel, TimeRange } from '../../../../contract/dashboards.ts';
import { $pendingWidgets } from '../../../stores/dashboards.ts';
import { replaceUrl } from '../../shared/use-url-view.ts';
import type * as DraftEdits from '../draft.ts';
import { readExploreView, writeExploreView } from '../view-url.ts';

/**
 * The draft's changes (draft.ts), loaded when edit mode starts or on the first change: `withEdits(apply)` runs `apply`
 * with them at once when they are loaded, else as soon as they are.
 */
export function useDraftEdits(warm: boolean): (apply: (edits: typeof DraftEdits) => void) => void {
  const [edits, setEdits] = useState<typeof DraftEdits | null>(null);
  const load = useCallback(
    () =>
      import('../draft.ts').then((module) => {
        setEdits(() => module);
        return module;
      }),
    [],
  );
  useEffect(() => {
    if (warm && !edits) void load();
  }, [warm, edits, load]);
  return (apply) => (edits ? apply(edits) : void load().then(apply));
}

/**
 * What the page shows of the dashboard: the time range and variable values (from the URL — a shared link, a reload —
 * else the dashboard's defaults, and written back as they change, so the address always shows this view) and `now`,
 * the instant relative ranges end at, moved by each refresh.
 */
export function useExploreView(savedModel: DashboardModel) {
  const [fromUrl] = useState(() => readExploreView(location.search, savedModel));
  const [range, setRange] = useState<TimeRange>(fromUrl.range);
  const [values, setValues] = useState<Record<string, string[]>>(fromUrl.values);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const search = writeExploreView({ range, values }, savedModel);
    replaceUrl((url) => {
      url.search = search;
    });
  }, [range, values, savedModel]);

  const refreshNow = useCallback(() => setNow(Date.now()), []);
  /** Views another range, asked from now. */
  const viewRange = useCallback((next: TimeRange) => {
    setRange(next);
    setNow(Date.now());
  }, []);
  /** Zooms into the instants a chart's selection spans. */
  const zoom = useCallback(
    (from: number, to: number) => viewRange({ from: new Date(from).toISOString(), to: new Date(to).toISOString() }),
    [viewRange],
  );
  return { range, values, setValues, now, refreshNow, viewRange, zoom };
}

/**
 * Auto refresh: every `seconds` (0: never) a new round calls `tick`; skipped while the tab is hidden or a round is still
 * loading, so rounds never stack, and a round starts when the tab is shown again.
 */
export function useAutoRefresh(seconds: number, tick: () => void): void {
  useEffect(() => {
    if (seconds === 0) return;
    const round = () => {
      if (document.hidden || $pendingWidgets.get() > 0) return;
      tick();
    };
    const timer = setInterval(round, seconds * 1000);
    const visible = () => {
      if (!document.hidden) round();
    };
    document.addEventListener('visibilitychange', visible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', visible);
    };
  }, [seconds, tick]);
}

/** Kiosk mode: the page full screen without its controls; it follows the browser's full screen, and Escape leaves it. */
export function useKiosk(root: RefObject<HTMLElement | null>) {
  const [kiosk, setKiosk] = useState(false);
  useEffect(() => {
    if (!kiosk) return;
    const left = () => {
      if (!document.fullscreenElement) setKiosk(false);
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setKiosk(false);
    };
    document.addEventListener('fullscreenchange', left);
    addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('fullscreenchange', left);
      removeEventListener('keydown', onEscape);
    };
  }, [kiosk]);
  const enterKiosk = (): void => {
    setKiosk(true);
    root.current?.requestFullscreen?.().catch(() => {
      // Full screen refused (an embedded page, a test browser): kiosk mode still hides the controls.
    });
  };
  const leaveKiosk = (): void => {
    setKiosk(false);
    if (document.fullscreenElement) void document.exitFullscreen();
  };
  return { kiosk, enterKiosk, leaveKiosk };
}

/** Leaving the page with unsaved changes asks first. */
export function useLeaveWarning(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    addEventListener('beforeunload', warn);
    return () => removeEventListener('beforeunload', warn);
  }, [dirty]);
}
