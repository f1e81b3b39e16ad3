import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  CONSENT_STORAGE_KEY,
  openConsentSettings,
  parseConsent,
  readConsent,
  reloadConsent,
  saveConsent,
  serializeConsent,
  useConsent,
} from './consent.ts';

describe('cookie consent', () => {
  beforeEach(() => {
    reloadConsent();
  });

  it('reads a stored choice and treats anything else as no choice', () => {
    expect(parseConsent(serializeConsent('all', new Date()))).toBe('all');
    expect(parseConsent(serializeConsent('necessary', new Date()))).toBe('necessary');
    expect(parseConsent(null)).toBeNull();
    expect(parseConsent('all')).toBeNull();
    expect(parseConsent('{"choice":"marketing"}')).toBeNull();
    expect(parseConsent('{not json')).toBeNull();
  });

  it('starts with no choice, so nothing optional runs until the visitor decides', () => {
    expect(readConsent()).toBeNull();
  });

  it('keeps the choice, with when it was made, in local storage', () => {
    saveConsent('necessary', new Date('2026-03-01T09:00:00Z'));
    expect(readConsent()).toBe('necessary');
    expect(JSON.parse(window.localStorage.getItem(CONSENT_STORAGE_KEY) ?? '')).toEqual({
      choice: 'necessary',
      decided_at: '2026-03-01T09:00:00.000Z',
    });
    reloadConsent();
    expect(readConsent()).toBe('necessary');
  });

  it('can be changed later: settings open the choice again, a new choice closes them', () => {
    saveConsent('necessary');
    const { result } = renderHook(() => useConsent());
    expect(result.current).toEqual({ choice: 'necessary', settingsOpen: false });
    act(() => openConsentSettings());
    expect(result.current).toEqual({ choice: 'necessary', settingsOpen: true });
    act(() => saveConsent('all'));
    expect(result.current).toEqual({ choice: 'all', settingsOpen: false });
    expect(parseConsent(window.localStorage.getItem(CONSENT_STORAGE_KEY))).toBe('all');
  });

  it('follows a choice made in another tab', () => {
    saveConsent('necessary');
    window.localStorage.setItem(CONSENT_STORAGE_KEY, serializeConsent('all', new Date()));
    window.dispatchEvent(new StorageEvent('storage', { key: CONSENT_STORAGE_KEY }));
    expect(readConsent()).toBe('all');
  });
});
