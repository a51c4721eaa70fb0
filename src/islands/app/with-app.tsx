import { type ComponentType, useEffect } from 'react';
import { startApp } from '../../stores/app-start.ts';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';

/** Wraps an island so it starts the app once and renders under an error boundary. */
export function withApp<P extends object>(Inner: ComponentType<P>): ComponentType<P> {
  function Island(props: P) {
    useEffect(() => {
      void startApp();
    }, []);
    return (
      <AppErrorBoundary>
        <Inner {...props} />
      </AppErrorBoundary>
    );
  }
  Island.displayName = `withApp(${Inner.displayName ?? Inner.name ?? 'Island'})`;
  return Island;
}
