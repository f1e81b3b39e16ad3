// The workspace features this API has, in the order their sections and routes are assembled.
// A new feature adds its factory here (README "Adding a workspace feature — API side").
import { createDirectoryFeature } from '../directory/directory.feature.ts';
import { createSambaFeature } from '../samba/samba.feature.ts';
import type { WorkspaceFeatureFactory } from './workspace-feature.ts';

export const WORKSPACE_FEATURES: readonly WorkspaceFeatureFactory[] = [
  createDirectoryFeature,
  createSambaFeature,
];
