import { errorMessages, STORAGE_KEYS } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import './error-messages.ts';
import { i18n } from './i18n.ts';
import { changeLanguage, currentLanguage } from './language.ts';
import { lt } from './lt.ts';
import { accountsEn } from './accounts.en.ts';
import { accountsLt } from './accounts.lt.ts';
import { plansEn } from './plans.en.ts';
import { plansLt } from './plans.lt.ts';
import { ordersEn } from './orders.en.ts';
import { ordersLt } from './orders.lt.ts';
import { planChangesEn } from './plan-changes.en.ts';
import { planChangesLt } from './plan-changes.lt.ts';
import { billingEn } from './billing.en.ts';
import { billingLt } from './billing.lt.ts';

function leaves(value: object, prefix = ''): [string, string][] {
  return Object.entries(value).flatMap(([key, inner]: [string, unknown]) =>
    typeof inner === 'string' ? [[`${prefix}${key}`, inner]] : leaves(inner as object, `${prefix}${key}.`),
  );
}

describe('i18n', () => {
  it('stores the language, switches the texts and keeps <html lang> in sync', async () => {
    await changeLanguage('lt');

    expect(currentLanguage()).toBe('lt');
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBe('lt');
    expect(document.documentElement.lang).toBe('lt');
    expect(i18n.t('header.signIn')).toBe('Prisijungti');
  });

  it('serves the contract error catalogue under errors.', async () => {
    expect(i18n.t('errors.invalid_email')).toBe(errorMessages.en.invalid_email);
    expect(i18n.t('errors.too_short', { minimum: 8 })).toBe('Must be at least 8 characters');
    await changeLanguage('lt');
    expect(i18n.t('errors.invalid_email')).toBe(errorMessages.lt.invalid_email);
  });

  it.each([
    ['app', en, lt],
    ['account pages', accountsEn, accountsLt],
    ['plan picker', plansEn, plansLt],
    ['payment pages', ordersEn, ordersLt],
    ['plans and plan-change pages', planChangesEn, planChangesLt],
    ['billing page', billingEn, billingLt],
  ])(
    'has a Lithuanian text for every English one, with the same placeholders (%s)',
    (_name, englishTexts, lithuanianTexts) => {
      const lithuanian = new Map(leaves(lithuanianTexts));
      for (const [key, english] of leaves(englishTexts)) {
        const translated = lithuanian.get(key);
        expect(translated, key).toBeTruthy();
        const placeholders = (text: string) =>
          [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
        expect(placeholders(translated ?? ''), key).toEqual(placeholders(english));
      }
    },
  );
});
