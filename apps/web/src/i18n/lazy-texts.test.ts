// Only the English texts come with the app; Lithuanian ones arrive before a switch to Lithuanian
// completes, even when a page's own Lithuanian texts were added first.
import { STORAGE_KEYS } from '@debesis/contract';
import { describe, expect, it, vi } from 'vitest';
import { i18n, loadTexts } from './i18n.ts';
import { lt } from './lt.ts';

describe('the app texts by language', () => {
  it('come in when the language switches to them, next to texts a page added first', async () => {
    // A fresh app (the other tests may have loaded Lithuanian into the shared one already).
    vi.resetModules();
    const { i18n: fresh } = await import('./i18n.ts');
    // Not downloaded with the app: the home page in English carries only the English texts.
    expect(fresh.getResource('lt', 'translation', 'common.loading')).toBeUndefined();
    fresh.addResourceBundle('lt', 'translation', { lazyTextsProbe: 'puslapio tekstas' }, true, false);
    await fresh.changeLanguage('lt');

    expect(fresh.t('common.loading')).toBe(lt.common.loading);
    expect(fresh.t('common.loading')).not.toBe(fresh.getFixedT('en')('common.loading'));
    expect((fresh.t as (key: string) => string)('lazyTextsProbe')).toBe('puslapio tekstas');
    await fresh.changeLanguage('en');
  });

  it('load once', async () => {
    await Promise.all([loadTexts('lt'), loadTexts('lt')]);
    expect(i18n.getResourceBundle('lt', 'translation')).toMatchObject({ common: lt.common });
  });

  it('start in a stored Lithuanian: once ready, the language in use is Lithuanian, not the fallback', async () => {
    window.localStorage.setItem(STORAGE_KEYS.language, 'lt');
    vi.resetModules();
    try {
      const fresh = await import('./i18n.ts');
      const { currentLanguage } = await import('./language.ts');
      await fresh.i18nReady;
      expect(fresh.i18n.resolvedLanguage).toBe('lt');
      expect(currentLanguage()).toBe('lt');
      expect(fresh.i18n.t('common.loading')).toBe(lt.common.loading);
    } finally {
      window.localStorage.removeItem(STORAGE_KEYS.language);
    }
  });
});
