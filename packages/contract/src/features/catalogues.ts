// The workspace features' own catalogues, gathered: the product's errors (errors.ts), activity
// actions (activity.ts) and their texts are the shared entries plus these. A new feature writes
// its catalogue in its folder and registers it in registered-catalogues.ts, one line the compiler
// checks; the types below make its codes part of ErrorCode, FieldErrorCode and ActivityAction
// everywhere.
import {
  mergeFeatureRecords,
  type ActivityActionEntry,
  type ActivitySentence,
  type ErrorEntry,
  type FeatureCatalogue,
  type Texts,
} from '../feature-catalogue.ts';
import type { Language } from '../constants.ts';
import { inFeatureOrder } from '../features.ts';
import * as registered from './registered-catalogues.ts';

type Catalogue = (typeof registered)[keyof typeof registered];

export const FEATURE_CATALOGUES: readonly Catalogue[] = inFeatureOrder(
  Object.values(registered) satisfies readonly FeatureCatalogue[],
);
// Distributive over the union of catalogues: each one's own keys, not the keys they share.
type ErrorCodesOf<C> = C extends FeatureCatalogue ? keyof C['errors'] & string : never;
type FieldCodesOf<C> = C extends FeatureCatalogue ? keyof C['fieldErrors'] & string : never;
type ActionsOf<C> = C extends FeatureCatalogue ? keyof C['activity'] & string : never;
type ActionKeysOf<C> = C extends FeatureCatalogue ? C['activity'][keyof C['activity']]['key'] : never;
type SentenceActionsOf<C> = C extends FeatureCatalogue
  ? {
      [A in keyof C['activity']]: C['activity'][A] extends { sentence: object } ? A : never;
    }[keyof C['activity']] &
      string
  : never;

export type FeatureErrorCode = ErrorCodesOf<Catalogue>;
export type FeatureFieldErrorCode = FieldCodesOf<Catalogue>;
export type FeatureActivityAction = ActionsOf<Catalogue>;
export type FeatureActionKey = ActionKeysOf<Catalogue>;
/** The feature actions whose catalogue gives their details' sentence (the others' is the web app's). */
export type FeatureSentenceAction = SentenceActionsOf<Catalogue>;

function gather<E, V>(
  pick: (catalogue: FeatureCatalogue) => Readonly<Record<string, E>>,
  value: (entry: E) => V,
) {
  return mergeFeatureRecords(
    (FEATURE_CATALOGUES as readonly FeatureCatalogue[]).map((catalogue) =>
      Object.fromEntries(Object.entries(pick(catalogue)).map(([code, entry]) => [code, value(entry)])),
    ),
  );
}

/** Each feature error's HTTP status. */
export const FEATURE_ERROR_STATUS = gather<ErrorEntry, number>(
  (catalogue) => catalogue.errors,
  (entry) => entry.status,
) as Readonly<Record<FeatureErrorCode, number>>;

/** The words of every feature's errors and field codes, in a language. */
export function featureErrorTexts(language: Language) {
  return {
    ...gather<Texts, string>(
      (catalogue) => catalogue.errors,
      (entry) => entry[language],
    ),
    ...gather<Texts, string>(
      (catalogue) => catalogue.fieldErrors,
      (entry) => entry[language],
    ),
  } as Readonly<Record<FeatureErrorCode | FeatureFieldErrorCode, string>>;
}

/** Each feature action's i18n key (the web app's `activity.actions.<key>`). */
export const FEATURE_ACTION_KEYS = gather<ActivityActionEntry, string>(
  (catalogue) => catalogue.activity,
  (entry) => entry.key,
) as Readonly<Record<FeatureActivityAction, FeatureActionKey>>;

/** The activity actions the features record, in their catalogues' order. */
export const FEATURE_ACTIVITY_ACTIONS = Object.keys(FEATURE_ACTION_KEYS) as readonly FeatureActivityAction[];

/** The texts of the features' actions in a language, by i18n key. */
export function featureActionTexts(language: Language) {
  const texts: Record<string, string> = {};
  for (const catalogue of FEATURE_CATALOGUES as readonly FeatureCatalogue[]) {
    for (const entry of Object.values(catalogue.activity)) texts[entry.key] = entry[language];
  }
  return texts as Readonly<Record<FeatureActionKey, string>>;
}

/** The actions' sentences their catalogues give, by action. */
export const FEATURE_ACTION_SENTENCES = Object.fromEntries(
  (FEATURE_CATALOGUES as readonly FeatureCatalogue[]).flatMap((catalogue) =>
    Object.entries(catalogue.activity).flatMap(([action, entry]) =>
      entry.sentence ? [[action, entry.sentence]] : [],
    ),
  ),
) as Readonly<Record<FeatureSentenceAction, ActivitySentence>>;

/** The texts of those sentences in a language, by the action's i18n key. */
export function featureSentenceTexts(language: Language): Readonly<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const catalogue of FEATURE_CATALOGUES as readonly FeatureCatalogue[]) {
    for (const entry of Object.values(catalogue.activity)) {
      if (entry.sentence) texts[entry.key] = entry.sentence[language];
    }
  }
  return texts;
}
