import { errorMessages, STORAGE_KEYS } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import './error-messages.ts';
import { i18n } from './i18n.ts';
import { changeLanguage, currentLanguage } from './language.ts';

type Module = Record<string, unknown>;

/**
 * Every text file of the app — `en.ts`, each `<area>.en.ts` and each service tab's
 * `<tab>/messages/<tab>.en.ts` — and its Lithuanian twin, found by name, so an area or a tab added later
 * is checked without anyone adding it here.
 */
const englishModules = import.meta.glob<Module>(
  ['./en.ts', './*.en.ts', '../pages/services/*/messages/*.en.ts'],
  { eager: true },
);
const lithuanianModules = import.meta.glob<Module>(
  ['./lt.ts', './*.lt.ts', '../pages/services/*/messages/*.lt.ts'],
  { eager: true },
);

/** [file, export, English texts, Lithuanian texts (undefined when missing)] for each text object. */
const textFiles = Object.entries(englishModules).flatMap(([file, english]) => {
  const twinFile = file.replace(/(^|[./])en\.ts$/, '$1lt.ts');
  const twin = lithuanianModules[twinFile] ?? {};
  return Object.entries(english)
    .filter(([, texts]) => typeof texts === 'object' && texts !== null)
    .map(([name, texts]) => {
      // accountsEn ↔ accountsLt, en ↔ lt
      const twinName = name === 'en' ? 'lt' : name.replace(/En$/, 'Lt');
      return [`${file} ${name}`, texts as object, twin[twinName] as object | undefined] as const;
    });
});

function leaves(value: object, prefix = ''): [string, string][] {
  return Object.entries(value).flatMap(([key, inner]: [string, unknown]) =>
    typeof inner === 'string' ? [[`${prefix}${key}`, inner]] : leaves(inner as object, `${prefix}${key}.`),
  );
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

/** English keys with no Lithuanian text, or whose Lithuanian text has other placeholders. */
function untranslated(english: object, lithuanian: object | undefined): string[] {
  const translated = new Map(leaves(lithuanian ?? {}));
  return leaves(english).flatMap(([key, text]) => {
    const other = translated.get(key);
    if (!other) return [`${key}: no Lithuanian text`];
    const [want, have] = [placeholders(text), placeholders(other)];
    return want.join() === have.join()
      ? []
      : [`${key}: placeholders ${have.join()} instead of ${want.join()}`];
  });
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

  it('finds every area of texts', () => {
    const files = textFiles.map(([where]) => where);
    expect(files).toContain('./en.ts en');
    expect(files).toContain('./accounts.en.ts accountsEn');
    expect(files).toContain('../pages/services/backups/messages/backups.en.ts backupsTabEn');
    expect(files.length).toBeGreaterThanOrEqual(7);
  });

  it.each(textFiles)(
    'has a Lithuanian text for every English one, with the same placeholders (%s)',
    (_where, english, lithuanian) => {
      expect(lithuanian, 'the Lithuanian file or export').toBeDefined();
      expect(untranslated(english, lithuanian)).toEqual([]);
    },
  );

  it('has both languages of the contract error catalogue', () => {
    expect(untranslated(errorMessages.en, errorMessages.lt)).toEqual([]);
  });

  it('reports a missing Lithuanian text and a lost placeholder', () => {
    const english = { page: { title: 'Title', greeting: 'Hello {{name}}', gone: 'Gone' } };
    const lithuanian = { page: { title: 'Pavadinimas', greeting: 'Labas' } };
    expect(untranslated(english, lithuanian)).toEqual([
      'page.greeting: placeholders  instead of name',
      'page.gone: no Lithuanian text',
    ]);
  });
});
