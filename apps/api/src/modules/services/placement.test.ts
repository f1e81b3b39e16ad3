// Choosing a node, an address and an id block, without a database.
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ID_BLOCK, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { choosePlacement, storageBytes, type CandidateNode, type PlacedWorkspace } from './placement.ts';

const GIB = 1024 ** 3;
const node = (id: string, freeGib: number, addresses: string[]): CandidateNode => ({
  id,
  name: id,
  diskFreeBytes: freeGib * GIB,
  addresses,
});
const placed = (
  nodeId: string,
  address: string,
  idBase: number,
  diskSpace: number,
  usedGib = 0,
): PlacedWorkspace => ({
  nodeId,
  address,
  idBase,
  diskSpace,
  diskUsedBytes: usedGib * GIB,
});

describe('choosePlacement', () => {
  it('takes the first free address and the lowest free id block', () => {
    const choice = choosePlacement(
      storageBytes(3),
      [node('a', 100, ['10.0.0.1', '10.0.0.2', '10.0.0.3'])],
      [
        placed('a', '10.0.0.1', WORKSPACE_ID_FIRST_BASE, 3),
        placed('a', '10.0.0.3', WORKSPACE_ID_FIRST_BASE + 2 * WORKSPACE_ID_BLOCK, 3),
      ],
    );
    expect(choice).toEqual({
      nodeId: 'a',
      address: '10.0.0.2',
      idBase: WORKSPACE_ID_FIRST_BASE + WORKSPACE_ID_BLOCK,
    });
  });

  it('counts the unwritten part of every placed workspace as taken (no overcommit)', () => {
    // 10 GiB free, a 50 GB workspace that stores 45 GiB: 5 GiB promised, 5 left.
    const nodes = [node('a', 10, ['10.0.0.1', '10.0.0.2'])];
    const existing = [placed('a', '10.0.0.1', WORKSPACE_ID_FIRST_BASE, 50, 45)];
    expect(choosePlacement(storageBytes(5), nodes, existing)).not.toBeNull();
    expect(choosePlacement(storageBytes(6), nodes, existing)).toBeNull();
  });

  it('prefers the node with the most room left, and skips nodes without an address', () => {
    const nodes = [node('small', 20, ['10.0.0.1']), node('big', 200, ['10.0.1.1']), node('full', 900, [])];
    expect(choosePlacement(storageBytes(3), nodes, [])?.nodeId).toBe('big');
    expect(
      choosePlacement(
        storageBytes(3),
        [node('full', 900, ['10.0.2.1'])],
        [placed('full', '10.0.2.1', WORKSPACE_ID_FIRST_BASE, 3)],
      ),
    ).toBeNull();
  });

  it('finds nothing without nodes', () => {
    expect(choosePlacement(1, [], [])).toBeNull();
  });
});
