// Host-wide names of a workspace with and without an agent instance (AGENT_INSTANCE).
import { afterEach, describe, expect, it } from 'vitest';
import { networkNames } from './system/netns.ts';
import { setAgentInstance, workspaceRuntimeDir, workspaceShortId } from './workspace-paths.ts';

afterEach(() => setAgentInstance(undefined));

describe('a workspace’s short id', () => {
  it('is the service id’s alone without an instance, as before', () => {
    // sha256("ws-1"), first 10 hex digits: what running workspaces' namespaces are named today.
    expect(workspaceShortId('ws-1')).toBe('769446044a');
  });

  it('differs per instance, so two agents on one host never share a namespace, veth or runtime folder', () => {
    const plain = {
      short: workspaceShortId('ws-1'),
      names: networkNames('ws-1'),
      run: workspaceRuntimeDir('ws-1'),
    };
    setAgentInstance('node-a');
    const a = {
      short: workspaceShortId('ws-1'),
      names: networkNames('ws-1'),
      run: workspaceRuntimeDir('ws-1'),
    };
    setAgentInstance('node-b');
    const b = {
      short: workspaceShortId('ws-1'),
      names: networkNames('ws-1'),
      run: workspaceRuntimeDir('ws-1'),
    };
    expect(new Set([plain.short, a.short, b.short]).size).toBe(3);
    expect(new Set([plain.names.netns, a.names.netns, b.names.netns]).size).toBe(3);
    expect(new Set([plain.names.nodeInterface, a.names.nodeInterface, b.names.nodeInterface]).size).toBe(3);
    expect(new Set([plain.run, a.run, b.run]).size).toBe(3);
    expect(a.names.nodeInterface.length).toBeLessThanOrEqual(15);
    setAgentInstance(undefined);
    expect(workspaceShortId('ws-1')).toBe(plain.short);
  });
});
