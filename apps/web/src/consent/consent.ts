// The visitor's cookie choice (spec §1): "necessary only" or "all", kept in browser storage and
// changeable at any time ("Cookie settings" in the footer). Until a choice is made nothing but the
// necessary storage is used, and analytics stays silent. One small store, read synchronously so
// the banner is in the first render (no jump), shared with other tabs through the storage event.
import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from '../lib/storage.ts';

export const CONSENT_STORAGE_KEY = 'cookie_consent';

export type ConsentChoice = 'necessary' | 'all';

export interface ConsentState {
  /** null: not asked yet. */
  readonly choice: ConsentChoice | null;
  /** The visitor asked to see the choice again (footer link). */
  readonly settingsOpen: boolean;
}

/** The stored form, with when it was made, so a later policy change can ask again. */
interface StoredConsent {
  choice: ConsentChoice;
  decided_at: string;
}

/** Reads what storage holds; anything unreadable counts as no choice (so the banner asks). */
export function parseConsent(raw: string | null): ConsentChoice | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && 'choice' in value) {
      const { choice } = value;
      if (choice === 'necessary' || choice === 'all') return choice;
    }
  } catch {
    // Not JSON: treated as no choice.
  }
  return null;
}

export function serializeConsent(choice: ConsentChoice, at: Date): string {
  const stored: StoredConsent = { choice, decided_at: at.toISOString() };
  return JSON.stringify(stored);
}

let state: ConsentState = { choice: parseConsent(readStorage(CONSENT_STORAGE_KEY)), settingsOpen: false };
const listeners = new Set<() => void>();

function setState(next: ConsentState): void {
  if (next.choice === state.choice && next.settingsOpen === state.settingsOpen) return;
  state = next;
  for (const listener of listeners) listener();
}

export function readConsent(): ConsentChoice | null {
  return state.choice;
}

export function saveConsent(choice: ConsentChoice, at: Date = new Date()): void {
  writeStorage(CONSENT_STORAGE_KEY, serializeConsent(choice, at));
  setState({ choice, settingsOpen: false });
}

export function openConsentSettings(): void {
  setState({ ...state, settingsOpen: true });
}

export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reads storage again (tests, and another tab's change). */
export function reloadConsent(): void {
  setState({ ...state, choice: parseConsent(readStorage(CONSENT_STORAGE_KEY)) });
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CONSENT_STORAGE_KEY || event.key === null) reloadConsent();
  });
}

const snapshot = () => state;

/** Prerendered pages: as useSession says (hydrated only while no choice is stored). */
export function useConsent(): ConsentState {
  return useSyncExternalStore(subscribeConsent, snapshot, snapshot);
}
