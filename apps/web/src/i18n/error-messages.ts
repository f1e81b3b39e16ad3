// Adds the contract's error catalogue to i18n under `errors.`, so the words for an error code are
// the ones the server puts in `message`. Imported by whatever shows error texts (the API client,
// forms) rather than by i18n.ts: the contract module holding the catalogue also builds the zod
// schemas, and the home page should not download zod to show no error at all.
import { errorMessages, LANGUAGES } from '@debesis/contract';
import { i18n } from './i18n.ts';

for (const language of LANGUAGES) {
  i18n.addResourceBundle(language, 'translation', { errors: errorMessages[language] }, true, false);
}
