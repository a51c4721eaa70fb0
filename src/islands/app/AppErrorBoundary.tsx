import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportAppError } from '../../stores/app.ts';

interface Props {
  readonly children: ReactNode;
}
interface State {
  readonly failed: boolean;
}

/** Catches render errors of one island and records them as the app error (the error page, or a log for bots). */
export class AppErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Spaceguard: an island failed to render', error, info.componentStack);
    reportAppError(error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
