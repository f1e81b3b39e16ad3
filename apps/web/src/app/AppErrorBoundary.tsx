// The "Something went wrong" screen for what a page throws while rendering (including a lazy chunk
// that vanished after a deploy, which "Refresh Page" fixes). It sits twice: around the routes
// (route-tree.tsx), where a navigation clears it, and around the router itself as the last line of
// defence, so nothing ends on a blank page.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback } from '../components/ErrorFallback.tsx';

interface AppErrorBoundaryProps {
  children: ReactNode;
  /** When it changes (a navigation), the error is dropped and the children render again. */
  resetKey?: string;
}

interface AppErrorBoundaryState {
  error: unknown;
  resetKey: string | undefined;
}

export class AppErrorBoundary extends Component<AppErrorBoundaryProps, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<AppErrorBoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(
    props: AppErrorBoundaryProps,
    state: AppErrorBoundaryState,
  ): Partial<AppErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unhandled error in the app', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error !== null) return <ErrorFallback onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
