// What a service tab is, and how a feature's folder declares its own (`<feature>/tab.ts`), for the
// one list in service-tabs.ts. That list is in the app's entry, so a folder's tab.ts brings its
// code and texts only by import(), never by a static import.
import type { Feature, Language } from '@debesis/contract';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import type { NamespaceLoaders } from '../../i18n/lazy-namespace.ts';

export interface ServiceTab {
  /** Its name: the link's test id is `service-tab-<id>`. */
  id: string;
  /** The path segment under the service; '' is the overview, the page's index. */
  path: string;
  /** Its label in the tab bar and the page title (the `workspace` namespace: the bar shows it first). */
  label: ParseKeys<'workspace'>;
  /** The feature it belongs to; none: always there. */
  feature?: Feature;
  component: () => Promise<ComponentType>;
  /** Its texts: a namespace loaded before it renders (a tab may share one, as Activity does). */
  messages?: { namespace: string; loaders: NamespaceLoaders };
}

/**
 * A tab's texts as its folder names them: the namespace and, per language, the import of its
 * text module (`messages/<tab>.<language>.ts`), whose one export is the texts.
 */
export type TabMessages = { namespace: string } & Readonly<Record<Language, () => Promise<object>>>;

export type ServiceTabDefinition = Omit<ServiceTab, 'messages'> & { messages?: TabMessages };

/** The texts a text module holds: its one export (the module also exports its type, not kept). */
function onlyExport(module: object): object {
  const [texts, ...others] = Object.values(module) as unknown[];
  if (typeof texts !== 'object' || texts === null || others.length > 0)
    throw new Error('A tab’s text module exports exactly one object: its texts.');
  return texts;
}

/** Its import, then the module's texts. */
const textsOf = (load: () => Promise<object>) => async (): Promise<object> => onlyExport(await load());

export function defineServiceTab({ messages, ...tab }: ServiceTabDefinition): ServiceTab {
  if (!messages) return tab;
  const loaders: NamespaceLoaders = { en: textsOf(messages.en), lt: textsOf(messages.lt) };
  return { ...tab, messages: { namespace: messages.namespace, loaders } };
}
