// The last line of defence, around the router itself: anything the router's own error element
// cannot catch still ends on the "Something went wrong" screen instead of a blank page.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback } from '../components/ErrorFallback.tsx';

interface AppErrorBoundaryState {
  error: unknown;
}

export class AppErrorBoundary extends Component<{ children: ReactNode }, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): AppErrorBoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unhandled error in the app', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error !== null) return <ErrorFallback onRetry={() => this.setState({ error: null })} />;
    return this.props.children;
  }
}
