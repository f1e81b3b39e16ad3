// The one i18next instance of the app. Texts are bundled (two small objects), so it is ready
// synchronously before the first render. The contract's error texts join under `errors.` from
// error-messages.ts, loaded with the first page that can show an error.
import type { errorMessages } from '@debesis/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';
import { lt } from './lt.ts';
import { readStoredLanguage } from './stored-language.ts';

export const resources = {
  en: { translation: en },
  lt: { translation: lt },
};

/** What `t()` accepts: the app's texts plus the contract's error catalogue. */
export type TranslationResources = { translation: typeof en & { errors: (typeof errorMessages)['en'] } };

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources,
  lng: readStoredLanguage(),
  fallbackLng: 'en',
  supportedLngs: ['en', 'lt'],
  initAsync: false,
  // React escapes what it renders; escaping here too would show `&amp;` to the reader.
  interpolation: { escapeValue: false },
  returnNull: false,
});

function syncDocumentLanguage(language: string): void {
  document.documentElement.lang = language;
}

syncDocumentLanguage(i18n.language);
i18n.on('languageChanged', syncDocumentLanguage);
