// Whether a change has reached the node (ARCHITECTURE "Desired state and the agent"): a user,
// group or share changed at generation G is applied once the agent reports an observed
// generation of at least G without listing it as failed; until then it is applying.
import type { ResourceApplyStatus, ResourceFailure } from '@debesis/contract';

export interface ObservedWorkspace {
  observedGeneration: number;
  failures: ResourceFailure[];
}

export function resourceStatus(
  workspace: ObservedWorkspace,
  resource: { kind: ResourceFailure['kind']; name: string; changedGeneration: number },
): { status: ResourceApplyStatus; error: string | null } {
  if (workspace.observedGeneration < resource.changedGeneration) return { status: 'applying', error: null };
  const failure = workspace.failures.find(
    (candidate) => candidate.kind === resource.kind && candidate.name === resource.name,
  );
  return failure ? { status: 'failed', error: failure.error } : { status: 'applied', error: null };
}
