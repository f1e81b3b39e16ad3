// What a workspace feature brings to the product's shared catalogues, declared in the feature's own
// contract folder (features/<feature>/<feature>.catalogue.ts): the errors its routes answer with,
// the field codes its schemas name, the activity actions it records, each with its words in every
// language. errors.ts, activity.ts and the web app's texts are typed aggregates of these
// (features/catalogues.ts), so a new feature adds its codes in its folder and one line there.
import type { Feature } from './features.ts';
import type { Language } from './constants.ts';

/** A text in every language the product speaks (i18next `{{name}}` placeholders allowed). */
export type Texts = Readonly<Record<Language, string>>;

/** An error a route answers with (the `detail` of an error response): its HTTP status and words. */
export interface ErrorEntry extends Texts {
  readonly status: number;
}

/**
 * An activity action the API records, keyed by its stable code (a sentence such as "Samba share
 * created": codes are stored in the log, so never renamed). `key` is the web app's i18n key of its
 * text: codes hold spaces and colons, which i18next keys cannot.
 */
export interface ActivityActionEntry extends Texts {
  readonly key: string;
  /** The sentence its details make under the action in the activity log ("Label env=prod"). */
  readonly sentence?: ActivitySentence;
}

/**
 * An action's sentence in every language, an i18next text naming its details (`{{key}}`): shown
 * when the entry has every detail it names, as a string or a number (an empty string counts).
 */
export interface ActivitySentence extends Texts {
  readonly details: readonly string[];
}

export interface FeatureCatalogue {
  /** The feature's one id (FEATURES): the API's factory and the web app's tab name it by this. */
  readonly feature: Feature;
  readonly errors: Readonly<Record<string, ErrorEntry>>;
  readonly fieldErrors: Readonly<Record<string, Texts>>;
  readonly activity: Readonly<Record<string, ActivityActionEntry>>;
}

/** Declares a feature's catalogue, keeping its codes as literal types for the aggregates. */
export function defineFeatureCatalogue<const C extends FeatureCatalogue>(catalogue: C): C {
  return catalogue;
}

/**
 * Records that features declare, merged into one (their codes, their node keys): a key two
 * features declare is a mistake, caught when the module loads.
 */
export function mergeFeatureRecords<V>(records: Iterable<Readonly<Record<string, V>>>): Record<string, V> {
  const merged: Record<string, V> = {};
  for (const record of records) {
    for (const [key, value] of Object.entries(record)) {
      if (Object.hasOwn(merged, key)) throw new Error(`${key} is declared by two features`);
      merged[key] = value;
    }
  }
  return merged;
}
