// Issue 36, point 8: a node's failure text names its own files (`/var/lib/…/ws/<id>/…`). The
// storage picker answers a failed node call with its code only; replayed
// here with a node whose refusals carry its paths.
import { describe, expect, it } from 'vitest';
import type { NodeCalls } from '../nodes/node-calls.ts';
import {
  useWorkspaceTestApp,
  ownerWithService,
  setService,
  workspaceCalls,
} from '../directory/workspace.test-support.ts';

const ROOT = '/var/lib/debesis/data/nodes/local/ws/3f0c9a1e-0b7a-4c11-9d55-2a7d1c0e9b10';
const NODE_LAYOUT = /\/var\/lib|data\/nodes|\/ws\//;

describe('storage browse errors', () => {
  const refusal = {
    ok: false as const,
    code: 'failed' as const,
    error: `EACCES: permission denied, opendir '${ROOT}/data/shares/x'`,
  };
  const nodeCalls: NodeCalls = {
    call: async () => refusal,
    stream: async () => refusal,
  };

  const { ctx, node } = useWorkspaceTestApp({
    nodeCalls,
    node: { name: 'browse-node', addresses: ['10.29.0.1'] },
  });

  it('attack: a node refusing a folder with its own path in the text answers the code, not the path', async () => {
    const owner = await ownerWithService(ctx);
    await setService(ctx, owner.serviceId, { nodeId: node.id, address: '10.29.1.1', idBase: 7_100_000 });
    const response = await workspaceCalls(ctx).get(
      owner.auth,
      `/api/v1/shares/${owner.serviceId}/storage?path=shares%2Fx`,
    );
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ detail: 'node_call_failed' });
    expect(response.body).not.toMatch(NODE_LAYOUT);
    expect(response.body).not.toContain('EACCES');
  });
});
