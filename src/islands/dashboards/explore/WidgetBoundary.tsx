/**
 * One widget's own error boundary: a widget that fails to draw (a chart library error on an odd result) shows why,
 * with Retry, and never takes the dashboard or the other widgets down with it.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RetryButton } from '../../shared/RetryButton.tsx';

interface Props {
  /** What the drawn thing stands for; a change (a new result, another type) tries again by itself. */
  readonly resetKey: string;
  readonly children: ReactNode;
}
interface State {
  readonly error: Error | null;
  readonly resetKey: string;
}

export class WidgetBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Spaceguard: a dashboard widget failed to draw', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="sg-widget__state sg-widget__state--error" role="alert">
        <p>This widget could not be drawn: {this.state.error.message}</p>
        <RetryButton onRetry={() => this.setState({ error: null })} />
      </div>
    );
  }
}
