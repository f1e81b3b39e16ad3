// Owns the colour theme: the visitor's choice (light, dark or system, spec §3 default light),
// where it is kept, and what <html data-theme> shows. "system" follows the operating system live.
// public/preferences.js applies the same rule before the app loads, so the first paint is right.
import { DEFAULT_THEME, STORAGE_KEYS, THEMES, type Theme } from '@debesis/contract';
import { useSyncExternalStore } from 'react';
import { readStorage, writeStorage } from '../lib/storage.ts';

export { THEMES, type Theme };
export type ResolvedTheme = 'light' | 'dark';
/**
 * Who changed the theme: `user` changes (the header toggle) are synchronised to the server while
 * signed in; `server`, `storage` (another tab) and `settings` (the settings page, which saves
 * itself) are not.
 */
export type ThemeChangeSource = 'user' | 'server' | 'storage' | 'settings';

export interface ThemeState {
  readonly theme: Theme;
  readonly resolvedTheme: ResolvedTheme;
}

type ChoiceListener = (theme: Theme, source: ThemeChangeSource) => void;

const DARK_QUERY = '(prefers-color-scheme: dark)';

function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

function resolve(theme: Theme): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark() ? 'dark' : 'light';
  return theme;
}

/** The choice kept on this device, or null when none was made here. */
export function storedThemeChoice(): Theme | null {
  const stored = readStorage(STORAGE_KEYS.theme);
  return isTheme(stored) ? stored : null;
}

function readStoredTheme(): Theme {
  return storedThemeChoice() ?? DEFAULT_THEME;
}

let state: ThemeState = { theme: DEFAULT_THEME, resolvedTheme: 'light' };
const stateListeners = new Set<() => void>();
const choiceListeners = new Set<ChoiceListener>();

function update(theme: Theme): void {
  const resolvedTheme = resolve(theme);
  document.documentElement.dataset.theme = resolvedTheme;
  if (state.theme === theme && state.resolvedTheme === resolvedTheme) return;
  state = { theme, resolvedTheme };
  stateListeners.forEach((listener) => listener());
}

export function getThemeState(): ThemeState {
  return state;
}

export function setTheme(theme: Theme, source: ThemeChangeSource = 'user'): void {
  const changed = theme !== state.theme;
  if (source !== 'storage') writeStorage(STORAGE_KEYS.theme, theme);
  update(theme);
  if (changed) choiceListeners.forEach((listener) => listener(theme, source));
}

/** Called whenever the choice changes; returns the unsubscribe function. */
export function onThemeChoiceChange(listener: ChoiceListener): () => void {
  choiceListeners.add(listener);
  return () => choiceListeners.delete(listener);
}

function subscribeState(listener: () => void): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

/** Prerendered pages: as useSession says (hydrated only when the choice is the default). */
export function useTheme(): ThemeState & { setTheme: (theme: Theme) => void } {
  const current = useSyncExternalStore(subscribeState, getThemeState, getThemeState);
  return { ...current, setTheme };
}

let started = false;

/** Reads the stored choice and starts following the OS and other tabs. Safe to call twice. */
export function startTheme(): void {
  if (started) return;
  started = true;
  update(readStoredTheme());
  if (typeof window.matchMedia === 'function') {
    window.matchMedia(DARK_QUERY).addEventListener('change', () => update(state.theme));
  }
  window.addEventListener('storage', (event) => {
    if (event.key === STORAGE_KEYS.theme && isTheme(event.newValue)) setTheme(event.newValue, 'storage');
  });
}
