// The session, as far as the foundation knows it: signed in means an access token is stored
// (spec §9 keys). The accounts issue replaces the inside of this module with spec §4 (user
// loading, expiry checks, refresh); the exported names are what the rest of the app relies on.
import { STORAGE_KEYS } from '@debesis/contract';
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { readStorage, removeStorage, writeStorage } from '../lib/storage.ts';

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string | undefined;
}

const listeners = new Set<() => void>();

function notify(): void {
  listeners.forEach((listener) => listener());
}

export function getAccessToken(): string | null {
  return readStorage(STORAGE_KEYS.accessToken);
}

export function getRefreshToken(): string | null {
  return readStorage(STORAGE_KEYS.refreshToken);
}

export function storeTokens(tokens: SessionTokens): void {
  writeStorage(STORAGE_KEYS.accessToken, tokens.accessToken);
  if (tokens.refreshToken) writeStorage(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  notify();
}

/** Logging out forgets everything tied to the person (spec §4), not their theme or language. */
export function clearSession(): void {
  removeStorage(STORAGE_KEYS.accessToken);
  removeStorage(STORAGE_KEYS.refreshToken);
  removeStorage(STORAGE_KEYS.userId);
  removeStorage(STORAGE_KEYS.selectedPlan);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Signing out in one tab signs out every tab.
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === STORAGE_KEYS.accessToken) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function hasSession(): boolean {
  return getAccessToken() !== null;
}

export interface Session {
  isAuthenticated: boolean;
}

export function useSession(): Session {
  const isAuthenticated = useSyncExternalStore(subscribe, hasSession);
  return { isAuthenticated };
}

export function useLogout(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    clearSession();
    void navigate('/auth/login', { replace: true });
  }, [navigate]);
}

/** Router state a guard leaves for the login page: where to return after signing in. */
export interface ReturnToState {
  from?: string;
}

export function returnPathFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const { from } = state as ReturnToState;
  // Only same-app paths: a crafted state must not send the visitor elsewhere after sign-in.
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : null;
}
