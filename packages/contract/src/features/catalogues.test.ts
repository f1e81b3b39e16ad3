import { describe, expect, it } from 'vitest';
import { SHARED_ACTIVITY_ACTIONS } from '../activity.ts';
import { SHARED_ERROR_STATUS } from '../errors.ts';
import { FEATURES } from '../features.ts';
import type { FeatureCatalogue } from '../feature-catalogue.ts';
import { FEATURE_ACTIVITY_ACTIONS, FEATURE_CATALOGUES, FEATURE_ERROR_STATUS } from './catalogues.ts';

const catalogues: readonly FeatureCatalogue[] = FEATURE_CATALOGUES;

describe('the features’ catalogues', () => {
  it('name a feature each, once', () => {
    const features = catalogues.map((catalogue) => catalogue.feature);
    expect(new Set(features).size).toBe(features.length);
    for (const feature of features) expect(FEATURES).toContain(feature);
  });

  it('declare no error code or activity action the shared lists have too', () => {
    const shared = new Set(Object.keys(SHARED_ERROR_STATUS));
    expect(Object.keys(FEATURE_ERROR_STATUS).filter((code) => shared.has(code))).toEqual([]);
    const sharedActions = new Set<string>(SHARED_ACTIVITY_ACTIONS);
    expect(FEATURE_ACTIVITY_ACTIONS.filter((action) => sharedActions.has(action))).toEqual([]);
  });

  it('give every action its own i18n key, and every entry its words in both languages', () => {
    const keys = catalogues.flatMap((catalogue) =>
      Object.values(catalogue.activity).map((entry) => entry.key),
    );
    expect(new Set(keys).size).toBe(keys.length);
    for (const catalogue of catalogues) {
      const entries = [
        ...Object.values(catalogue.errors),
        ...Object.values(catalogue.fieldErrors),
        ...Object.values(catalogue.activity),
      ];
      for (const entry of entries) {
        expect(entry.en.trim(), catalogue.feature).not.toBe('');
        expect(entry.lt.trim(), catalogue.feature).not.toBe('');
      }
    }
  });
});
