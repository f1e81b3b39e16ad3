// What a service tab is, and how a feature's folder declares its own (`<feature>/tab.ts`), for the
// one list in service-tabs.ts. That list is in the app's entry, so a folder's tab.ts brings its
// code and texts only by import(), never by a static import; only its label, a word per language,
// is in the entry, because the tab bar shows every tab's label before any tab has loaded.
import type { Feature, Language } from '@debesis/contract';
import type { ComponentType } from 'react';
import type { NamespaceLoaders } from '../../i18n/lazy-namespace.ts';

/** Where a tab's texts are, by type only: the namespace and its texts, for i18n's typed `t()`. */
declare const textsType: unique symbol;

export interface ServiceTab<Texts extends object = object> {
  /** Its name: the link's test id is `service-tab-<id>`, its label's key `serviceTabs:<id>`. */
  id: string;
  /** The path segment under the service; '' is the overview, the page's index. */
  path: string;
  /**
   * Its place in the tab bar, ascending: the features' tabs in tens (a second tab of a feature,
   * Advanced FTP, one after its first), the overview first (10) and the settings last (1000).
   */
  order: number;
  /** Its label in the tab bar and the page title, in each language (tab-labels.ts adds them to i18n). */
  label: Readonly<Record<Language, string>>;
  /** The feature it belongs to; none: always there. */
  feature?: Feature;
  component: () => Promise<ComponentType>;
  /** Its texts: a namespace loaded before it renders (a tab may share one, as Activity does). */
  messages?: { namespace: string; loaders: NamespaceLoaders };
  /** Never set: carries the namespace's type to service-tabs.ts (`ServiceTabResources`). */
  readonly [textsType]?: Texts;
}

/** A text module (`messages/<tab>.<language>.ts`): its one export is the texts. */
type TextModule<Texts> = Readonly<Record<string, Texts>>;

/**
 * A tab's texts as its folder names them: the namespace and, per language, the import of its
 * text module. The Lithuanian module must have the English one's shape.
 */
export interface TabMessages<Namespace extends string = string, Texts extends object = object> {
  namespace: Namespace;
  en: () => Promise<TextModule<Texts>>;
  lt: () => Promise<TextModule<NoInfer<Texts>>>;
}

export type ServiceTabDefinition<Namespace extends string, Texts extends object> = Omit<
  ServiceTab,
  'messages' | typeof textsType
> & { messages?: TabMessages<Namespace, Texts> };

/** The texts a text module holds: its one export (the module also exports its type, not kept). */
function onlyExport(module: object): object {
  const [texts, ...others] = Object.values(module) as unknown[];
  if (typeof texts !== 'object' || texts === null || others.length > 0)
    throw new Error('A tab’s text module exports exactly one object: its texts.');
  return texts;
}

/** Its import, then the module's texts. */
const textsOf = (load: () => Promise<object>) => async (): Promise<object> => onlyExport(await load());

export function defineServiceTab<const Namespace extends string = never, Texts extends object = never>({
  messages,
  ...tab
}: ServiceTabDefinition<Namespace, Texts>): ServiceTab<{ [N in Namespace]: Texts }> {
  if (!messages) return tab;
  const loaders: NamespaceLoaders = { en: textsOf(messages.en), lt: textsOf(messages.lt) };
  return { ...tab, messages: { namespace: messages.namespace, loaders } };
}

/** The namespaces and texts of these tabs, one type: what `t()` may ask of them (i18n.ts). */
export type TabResources<Tabs extends readonly ServiceTab[]> = UnionToIntersection<TextsOf<Tabs[number]>>;

/** Per tab of a union (the conditional distributes over it). */
type TextsOf<Tab> = Tab extends ServiceTab<infer Texts> ? Texts : never;

type UnionToIntersection<Union> = (Union extends unknown ? (part: Union) => void : never) extends (
  part: infer Intersection,
) => void
  ? Intersection
  : never;
