import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FeatureNodePart } from '../feature-node-part.ts';
import { FEATURES } from '../features.ts';
import { workspaceFeatureReportsSchema, workspaceFeatureSectionsSchema } from '../nodes.ts';
import { FEATURE_NODE_PARTS } from './node-parts.ts';

const parts: readonly FeatureNodePart[] = FEATURE_NODE_PARTS;

describe("the features' node parts", () => {
  it('name each a feature, once', () => {
    const features = parts.map((part) => part.feature);
    expect(new Set(features).size).toBe(features.length);
    for (const feature of features) expect(FEATURES).toContain(feature);
  });

  // An API older than its agent sends no section for a feature it does not know, and an agent
  // older than its API sends no report: every key a feature adds must be one that may be absent.
  it('add only keys that may be absent, to the desired state and to the report', () => {
    for (const part of parts) {
      expect(z.object(part.sections ?? {}).safeParse({}).success, part.feature).toBe(true);
      expect(z.object(part.reports ?? {}).safeParse({}).success, part.feature).toBe(true);
    }
  });

  it('make up the desired state and the report with the platform’s own keys', () => {
    const keysOf = (key: 'sections' | 'reports') => parts.flatMap((part) => Object.keys(part[key] ?? {}));
    expect(Object.keys(workspaceFeatureSectionsSchema.shape)).toEqual([
      ...keysOf('sections'),
      'bandwidth_throttled',
    ]);
    expect(Object.keys(workspaceFeatureReportsSchema.shape)).toEqual([
      'network',
      ...keysOf('reports'),
      'replica',
    ]);
  });
});
