// What a workspace feature adds to the node protocol (nodes.ts), declared in the feature's own
// contract folder (features/<folder>/<feature>-node.ts): the sections of a workspace's desired state
// it fills and the keys it reports back. nodes.ts builds the desired state and the report from
// these (features/node-parts.ts gathers them), so a new feature's node part is its file and one
// line there. Kept apart from the feature's catalogue (texts): the web app reads those, never this.
import { z } from 'zod';
import type { Feature } from './features.ts';

export interface FeatureNodePart {
  readonly feature: Feature;
  /**
   * Its keys in a workspace's desired state. Each may be absent or defaulted (the feature is not
   * used there), since an API older than the agent does not send it.
   */
  readonly sections?: z.ZodRawShape;
  /** Its keys in a workspace's report: what its daemons observed. Each optional. */
  readonly reports?: z.ZodRawShape;
}

/** Declares a feature's node part, keeping its schemas' types for nodes.ts. */
export function defineFeatureNodePart<const P extends FeatureNodePart>(part: P): P {
  return part;
}

/** A TCP or UDP port a workspace's daemon listens on, on the workspace's own address. */
export const daemonPortSchema = z.number().int().min(1).max(65535);
