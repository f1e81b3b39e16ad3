import { describe, expect, it } from 'vitest';
import { resourceStatus } from './resource-status.ts';

const share = (changedGeneration: number) => ({
  kind: 'share' as const,
  name: 'projects',
  changedGeneration,
});

describe('resourceStatus', () => {
  it('is applying until the node has applied the generation of the change', () => {
    expect(resourceStatus({ observedGeneration: 4, failures: [] }, share(5))).toEqual({
      status: 'applying',
      error: null,
    });
  });

  it('is applied once the observed generation reaches it', () => {
    expect(resourceStatus({ observedGeneration: 5, failures: [] }, share(5)).status).toBe('applied');
    expect(resourceStatus({ observedGeneration: 9, failures: [] }, share(5)).status).toBe('applied');
  });

  it('is failed with the node’s reason when the report lists it', () => {
    const failures = [{ kind: 'share' as const, name: 'projects', error: 'testparm refused the share' }];
    expect(resourceStatus({ observedGeneration: 6, failures }, share(5))).toEqual({
      status: 'failed',
      error: 'testparm refused the share',
    });
    // A user of the same name is another resource.
    expect(
      resourceStatus(
        { observedGeneration: 6, failures },
        { kind: 'user', name: 'projects', changedGeneration: 5 },
      ).status,
    ).toBe('applied');
  });
});
