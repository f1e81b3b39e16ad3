// Where a standby may go: never on the primary's node, only where the pool holds the address,
// never where its address or id block is taken by another copy, only with room by placement's
// rule (a standby counts as promised there like a workspace).
import { WORKSPACE_ID_BLOCK, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import { STORAGE_BYTES_PER_GB } from '../services/lifecycle.constants.ts';
import { choosePlacement, type CandidateNode, type PlacedWorkspace } from '../services/placement.ts';
import { chooseStandby } from './standby-choice.ts';

const GB = STORAGE_BYTES_PER_GB;
const need = { id: 's1', nodeId: 'n1', address: '10.0.0.5', idBase: 100_000, diskSpace: 10 };
const node = (id: string, freeGb: number, addresses = ['10.0.0.5', '10.0.0.6']): CandidateNode => ({
  id,
  name: id,
  diskFreeBytes: freeGb * GB,
  addresses,
});
const copy = (values: Partial<PlacedWorkspace>): PlacedWorkspace => ({
  nodeId: 'n2',
  address: '10.0.0.9',
  idBase: 200_000,
  diskSpace: 10,
  diskUsedBytes: 0,
  ...values,
});

describe('chooseStandby', () => {
  it('never picks the primary’s node, even with the most room', () => {
    expect(chooseStandby(need, [node('n1', 1000), node('n2', 50)], [])?.id).toBe('n2');
    expect(chooseStandby(need, [node('n1', 1000)], [])).toBeNull();
  });

  it('needs the address in the node’s pool (the address follows a promotion)', () => {
    expect(chooseStandby(need, [node('n2', 100, ['10.1.0.1'])], [])).toBeNull();
  });

  it('refuses a node where the address or the id block is taken by another copy', () => {
    expect(chooseStandby(need, [node('n2', 100)], [copy({ address: '10.0.0.5' })])).toBeNull();
    expect(chooseStandby(need, [node('n2', 100)], [copy({ idBase: 100_000 })])).toBeNull();
    // Its own copy (a standby being placed anew) does not count against it.
    expect(chooseStandby(need, [node('n2', 100)], [copy({ id: 's1', address: '10.0.0.5' })])?.id).toBe('n2');
  });

  it('needs room by placement’s rule, standby copies counted as promised', () => {
    expect(chooseStandby(need, [node('n2', 9)], [])).toBeNull();
    expect(chooseStandby(need, [node('n2', 15)], [copy({ diskSpace: 10 })])).toBeNull();
    expect(chooseStandby(need, [node('n2', 20), node('n3', 30)], [])?.id).toBe('n3');
  });
});

describe('choosePlacement across a room', () => {
  const inUse = (addresses: string[], idBases: number[] = []) => ({
    addresses: new Set(addresses),
    idBases: new Set(idBases),
  });

  it('hands out no address another node holds (the nodes of a room share one pool)', () => {
    const nodes = [node('n1', 100, ['10.0.0.1', '10.0.0.2'])];
    expect(choosePlacement(GB, nodes, [], inUse(['10.0.0.1']))?.address).toBe('10.0.0.2');
    expect(choosePlacement(GB, nodes, [], inUse(['10.0.0.1', '10.0.0.2']))).toBeNull();
  });

  it('hands out no id block another node holds (a standby takes its primary’s Unix ids over)', () => {
    const nodes = [node('n1', 100, ['10.0.0.1'])];
    const first = WORKSPACE_ID_FIRST_BASE;
    expect(choosePlacement(GB, nodes, [], inUse([], [first]))?.idBase).toBe(first + WORKSPACE_ID_BLOCK);
  });
});
