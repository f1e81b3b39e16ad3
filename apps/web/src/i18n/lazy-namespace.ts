// A namespace of texts that arrives with the code that uses it (a service tab): its English and
// Lithuanian objects are separate chunks, imported the first time the namespace is asked for and
// added to i18n before that code renders. Both languages come at once, so switching language
// later shows the new words at once, with nothing left to wait for.
import { LANGUAGES, type Language } from '@debesis/contract';
import { i18n } from './i18n.ts';

export type NamespaceLoaders = Readonly<Record<Language, () => Promise<object>>>;

const pending = new Map<string, Promise<void>>();

/** Loads `namespace` once (later calls share the first load); resolves when i18n has it. */
export function loadNamespace(namespace: string, loaders: NamespaceLoaders): Promise<void> {
  if (LANGUAGES.every((language) => i18n.hasResourceBundle(language, namespace))) return Promise.resolve();
  let loading = pending.get(namespace);
  if (!loading) {
    loading = Promise.all(
      LANGUAGES.map(async (language) => {
        i18n.addResourceBundle(language, namespace, await loaders[language](), true, false);
      }),
    ).then(
      () => undefined,
      (error: unknown) => {
        // A chunk that failed to arrive (offline, a new deploy) may be asked for again.
        pending.delete(namespace);
        throw error;
      },
    );
    pending.set(namespace, loading);
  }
  return loading;
}
