import { STORAGE_KEYS } from '@debesis/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as ThemeModuleShape from './theme.ts';

type ThemeModule = typeof ThemeModuleShape;

let systemDark = false;
const mediaListeners = new Set<() => void>();

/** A stand-in for the OS colour-scheme preference that a test can flip. */
function fakeMatchMedia(query: string): MediaQueryList {
  return {
    get matches() {
      return query.includes('dark') && systemDark;
    },
    media: query,
    addEventListener: (_type: string, listener: () => void) => mediaListeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => mediaListeners.delete(listener),
  } as unknown as MediaQueryList;
}

async function freshThemeModule(): Promise<ThemeModule> {
  vi.resetModules();
  return import('./theme.ts');
}

describe('theme', () => {
  beforeEach(() => {
    systemDark = false;
    mediaListeners.clear();
    vi.stubGlobal('matchMedia', vi.fn(fakeMatchMedia));
    delete document.documentElement.dataset.theme;
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('starts light when nothing is stored (spec default)', async () => {
    const theme = await freshThemeModule();
    theme.startTheme();
    expect(theme.getThemeState()).toEqual({ theme: 'light', resolvedTheme: 'light' });
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('applies and stores a choice', async () => {
    const theme = await freshThemeModule();
    theme.startTheme();
    theme.setTheme('dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(window.localStorage.getItem(STORAGE_KEYS.theme)).toBe('dark');
  });

  it('follows the operating system live when set to system', async () => {
    window.localStorage.setItem(STORAGE_KEYS.theme, 'system');
    const theme = await freshThemeModule();
    theme.startTheme();
    expect(document.documentElement.dataset.theme).toBe('light');

    systemDark = true;
    mediaListeners.forEach((listener) => listener());

    expect(theme.getThemeState()).toEqual({ theme: 'system', resolvedTheme: 'dark' });
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('tells subscribers about changes of the choice and who made them', async () => {
    const theme = await freshThemeModule();
    theme.startTheme();
    const changes: string[] = [];
    const unsubscribe = theme.onThemeChoiceChange((choice, source) => changes.push(`${choice}:${source}`));

    theme.setTheme('dark');
    theme.setTheme('dark');
    theme.setTheme('system', 'server');
    unsubscribe();
    theme.setTheme('light');

    expect(changes).toEqual(['dark:user', 'system:server']);
  });

  it('ignores an unknown stored value', async () => {
    window.localStorage.setItem(STORAGE_KEYS.theme, 'purple');
    const theme = await freshThemeModule();
    theme.startTheme();
    expect(theme.getThemeState().theme).toBe('light');
  });
});
