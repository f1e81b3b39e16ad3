// The workspace features this API has (registered-workspace-features.ts, a line each), for
// app/workspaces.ts.
import type { WorkspaceFeatureFactory } from './modules/workspace/workspace-feature.ts';
import * as registered from './registered-workspace-features.ts';

export const WORKSPACE_FEATURES: readonly WorkspaceFeatureFactory[] = Object.values(registered);
