// Where the chosen language lives between visits (spec §9: default en).
import { DEFAULT_LANGUAGE, LANGUAGES, STORAGE_KEYS, type Language } from '@debesis/contract';
import { readStorage, writeStorage } from '../lib/storage.ts';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function readStoredLanguage(): Language {
  const stored = readStorage(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : DEFAULT_LANGUAGE;
}

export function storeLanguage(language: Language): void {
  writeStorage(STORAGE_KEYS.language, language);
}
