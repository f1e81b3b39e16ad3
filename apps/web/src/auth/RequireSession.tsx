import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, type ReturnToState } from './session.ts';

/** Sends a visitor without a session to sign in, remembering where they were going (spec §2). */
export function RequireSession({ children }: { children: ReactNode }) {
  const { isAuthenticated } = useSession();
  const location = useLocation();
  if (!isAuthenticated) {
    const state: ReturnToState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/auth/login" replace state={state} />;
  }
  return children;
}
