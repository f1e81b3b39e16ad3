// The session state of spec §4 and the browser storage it lives in (spec §9 keys). This module
// is small on purpose: the header of every page reads it, so it holds no HTTP and no schemas.
// Loading the user, refreshing tokens and logging out live in session-runtime.ts, loaded only
// when a session exists (bootSession) or a sign-in page needs it.
//
//   loading ──user loaded──▶ authenticated
//      │  └──401/403 or 3 retries failed──▶ failed
//   (no stored tokens) ──▶ logged_out ◀── logout, refresh refused, another tab signed out
import { CLIENT_TIMING, STORAGE_KEYS, type User } from '@debesis/contract';
import { useCallback, useSyncExternalStore } from 'react';
import { readStorage, removeStorage, writeStorage } from '../lib/storage.ts';
import { sleep } from './clock.ts';
import type * as SessionRuntime from './session-runtime.ts';

export type SessionStatus = 'loading' | 'authenticated' | 'failed' | 'logged_out';

/** Why a session failed: the user could not be loaded, or the server refused the tokens. */
export type SessionFailure = 'load_failed' | 'unauthorized';

export interface SessionState {
  readonly status: SessionStatus;
  /** The signed-in user; present exactly when status is `authenticated`. */
  readonly user: User | null;
  readonly failure: SessionFailure | null;
}

export interface SessionTokens {
  accessToken: string;
  refreshToken?: string | undefined;
}

const LOGGED_OUT: SessionState = { status: 'logged_out', user: null, failure: null };
const LOADING: SessionState = { status: 'loading', user: null, failure: null };

// ── storage ────────────────────────────────────────────────────────────────────────────────

export function getAccessToken(): string | null {
  return readStorage(STORAGE_KEYS.accessToken);
}

export function getRefreshToken(): string | null {
  return readStorage(STORAGE_KEYS.refreshToken);
}

export function hasStoredTokens(): boolean {
  return getAccessToken() !== null;
}

export function getStoredUserId(): string | null {
  return readStorage(STORAGE_KEYS.userId);
}

/** Keeps new tokens, then waits CLIENT_TIMING.tokenSettleMs (spec §4) before anyone uses them. */
export async function storeTokens(tokens: SessionTokens): Promise<void> {
  writeStorage(STORAGE_KEYS.accessToken, tokens.accessToken);
  if (tokens.refreshToken) writeStorage(STORAGE_KEYS.refreshToken, tokens.refreshToken);
  await sleep(CLIENT_TIMING.tokenSettleMs);
}

/**
 * Forgets the tokens and the stored user id (not the selected plan: a visitor whose session ran
 * out keeps the plan they were buying), sets the state, then waits tokenSettleMs.
 */
export async function clearTokens(next: SessionState = LOGGED_OUT): Promise<void> {
  removeStorage(STORAGE_KEYS.accessToken);
  removeStorage(STORAGE_KEYS.refreshToken);
  removeStorage(STORAGE_KEYS.userId);
  setSessionState(next);
  await sleep(CLIENT_TIMING.tokenSettleMs);
}

/** Logging out forgets everything tied to the person (spec §4), not their theme or language. */
export async function clearSession(): Promise<void> {
  removeStorage(STORAGE_KEYS.selectedPlan);
  await clearTokens(LOGGED_OUT);
}

// ── state ──────────────────────────────────────────────────────────────────────────────────

let state: SessionState = hasStoredTokens() ? LOADING : LOGGED_OUT;
const listeners = new Set<() => void>();

export function getSessionState(): SessionState {
  return state;
}

/** For the session runtime: every transition goes through here. */
export function setSessionState(next: SessionState): void {
  if (next.status === 'authenticated' && next.user) writeStorage(STORAGE_KEYS.userId, next.user.id);
  if (next === state) return;
  state = next;
  listeners.forEach((listener) => listener());
}

export function sessionLoading(): SessionState {
  return LOADING;
}

export function sessionFailed(failure: SessionFailure): SessionState {
  return { status: 'failed', user: null, failure };
}

export function sessionAuthenticated(user: User): SessionState {
  return { status: 'authenticated', user, failure: null };
}

/** Replaces the signed-in user after the server changed it (settings, conversion). */
export function updateSessionUser(user: User): void {
  if (state.status === 'authenticated') setSessionState(sessionAuthenticated(user));
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

// ── start ──────────────────────────────────────────────────────────────────────────────────

type Runtime = typeof SessionRuntime;
let runtime: Promise<Runtime> | null = null;

/** The heavy half (API client, schemas, timers); fetched once, the first time it is needed. */
export function loadSessionRuntime(): Promise<Runtime> {
  runtime ??= import('./session-runtime.ts');
  return runtime;
}

let watchingOtherTabs = false;

function watchOtherTabs(): void {
  if (watchingOtherTabs) return;
  watchingOtherTabs = true;
  window.addEventListener('storage', (event) => {
    if (event.key !== null && event.key !== STORAGE_KEYS.accessToken) return;
    if (!hasStoredTokens()) {
      // Another tab logged out (or the session ended there): so does this one.
      if (state.status !== 'logged_out') setSessionState(LOGGED_OUT);
    } else if (state.status === 'logged_out' || state.status === 'failed') {
      // Another tab signed in.
      bootSession();
    }
  });
}

/**
 * Starts the session from storage (spec §4): without stored tokens the visitor is logged out at
 * once and no session code is downloaded; with tokens the state is `loading` until the user is.
 */
export function bootSession(): void {
  watchOtherTabs();
  if (!hasStoredTokens()) {
    setSessionState(LOGGED_OUT);
    return;
  }
  if (state.status !== 'authenticated') setSessionState(LOADING);
  void loadSessionRuntime().then((loaded) => loaded.startSession());
}

// ── React ──────────────────────────────────────────────────────────────────────────────────

export interface Session extends SessionState {
  isAuthenticated: boolean;
  isLoading: boolean;
}

/**
 * The third argument, the state a prerendered page was rendered with, is the same getter: the
 * build renders signed out, and a page is hydrated only when its visitor is (main.tsx).
 */
export function useSession(): Session {
  const current = useSyncExternalStore(subscribeSession, getSessionState, getSessionState);
  return {
    ...current,
    isAuthenticated: current.status === 'authenticated',
    isLoading: current.status === 'loading',
  };
}

/** Logs out (spec §4): tells the server, forgets the session and opens the login page. */
export function useLogout(): () => void {
  return useCallback(() => {
    void loadSessionRuntime().then((loaded) => loaded.logout());
  }, []);
}

/** Router state a guard leaves for the login page: where to return after signing in. */
export interface ReturnToState {
  from?: string;
}

/** A same-app path, or null: a crafted state or link must not send the visitor elsewhere. */
export function safeReturnPath(path: unknown): string | null {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')
    ? path
    : null;
}

export function returnPathFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  return safeReturnPath((state as ReturnToState).from);
}
