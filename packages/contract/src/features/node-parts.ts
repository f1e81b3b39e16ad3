// The workspace features' node parts, gathered (feature-node-part.ts): nodes.ts's desired state and
// report are the platform's own keys plus these. A new feature writes its part in its folder and
// registers it in registered-node-parts.ts, one line the compiler checks; its keys then type the
// desired state everywhere (the agent's drivers, the API's feature registry). The features' order
// is the order of the keys on the wire.
import type { z } from 'zod';
import { mergeFeatureRecords } from '../feature-catalogue.ts';
import type { FeatureNodePart } from '../feature-node-part.ts';
import { inFeatureOrder } from '../features.ts';
import * as registered from './registered-node-parts.ts';

type Part = (typeof registered)[keyof typeof registered];

export const FEATURE_NODE_PARTS: readonly Part[] = inFeatureOrder(
  Object.values(registered) satisfies readonly FeatureNodePart[],
);
// The parts' shapes as one: from the union of each part's own shape to their intersection.
type Merged<Shape> = (Shape extends unknown ? (shape: Shape) => void : never) extends (
  shape: infer All,
) => void
  ? All
  : never;
type SectionsOf<P> = P extends { readonly sections: infer S } ? S : never;
type ReportsOf<P> = P extends { readonly reports: infer R } ? R : never;

/** Every feature's desired-state sections, as one zod shape. */
export type FeatureNodeSections = Merged<SectionsOf<Part>>;
/** Every feature's report keys, as one zod shape. */
export type FeatureNodeReports = Merged<ReportsOf<Part>>;

/** The parts' shapes merged (a key two features claim throws at load). */
const merge = (pick: (part: FeatureNodePart) => z.ZodRawShape | undefined): z.ZodRawShape =>
  mergeFeatureRecords((FEATURE_NODE_PARTS as readonly FeatureNodePart[]).map((part) => pick(part) ?? {}));

export const featureNodeSections = merge((part) => part.sections) as FeatureNodeSections;
export const featureNodeReports = merge((part) => part.reports) as FeatureNodeReports;
