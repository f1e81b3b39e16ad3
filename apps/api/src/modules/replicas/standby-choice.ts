// Which node keeps a workspace's standby copy (replicas.ts), with no I/O: a node other than the
// primary's, whose pool holds the workspace's address (the address follows a promotion), where
// neither that address nor its id block is held by another copy, and with room by placement's
// rule (placement.ts: the standby is as large as the workspace). The one with most room left wins.
import {
  storageBytes,
  unpromisedBytes,
  type CandidateNode,
  type PlacedWorkspace,
} from '../services/placement.ts';

export interface StandbyNeed {
  id: string;
  nodeId: string;
  address: string;
  idBase: number;
  diskSpace: number;
}

export function chooseStandby(
  service: StandbyNeed,
  nodes: readonly CandidateNode[],
  placed: readonly PlacedWorkspace[],
): CandidateNode | null {
  let best: { node: CandidateNode; roomLeft: number } | null = null;
  for (const node of nodes) {
    if (node.id === service.nodeId || !node.addresses.includes(service.address)) continue;
    const here = placed.filter((workspace) => workspace.nodeId === node.id);
    if (here.some((workspace) => workspace.id !== service.id && workspace.address === service.address))
      continue;
    if (here.some((workspace) => workspace.id !== service.id && workspace.idBase === service.idBase))
      continue;
    const roomLeft = unpromisedBytes(node.diskFreeBytes, here) - storageBytes(service.diskSpace);
    if (roomLeft < 0) continue;
    if (!best || roomLeft > best.roomLeft) best = { node, roomLeft };
  }
  return best?.node ?? null;
}
