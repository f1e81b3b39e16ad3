// Waking a node's agent so that it pulls its desired state now instead of at its next poll.
// Agents running in this process (the embedded local node) register here and are woken
// directly; a standalone agent is woken through its long poll for node calls, which answers at
// once with `wake` (nodeWakeups below). Waking is only ever a shortcut: nothing depends on it
// having happened, the agent's poll (AGENT_POLL_INTERVAL_MS) picks the change up anyway.
import type { Database } from '../../db/database.ts';
import { notifyNodeWake } from './node-calls-relay.ts';

/** An agent in this process: its node id once it has registered, and its wake-up. */
export interface LocalAgent {
  readonly nodeId: string | undefined;
  wake(): void;
}

export interface NodeWaker {
  wake(nodeId: string): void;
  /** Adds an in-process agent; the function returned removes it again. */
  register(agent: LocalAgent): () => void;
  /** Hears every wake-up of this process (the node calls' long polls); returns the unsubscribe. */
  listen(listener: (nodeId: string) => void): () => void;
}

export function createNodeWaker(): NodeWaker {
  const agents = new Set<LocalAgent>();
  const listeners = new Set<(nodeId: string) => void>();
  return {
    wake(nodeId) {
      // Asked lazily: the embedded agent learns its node id only after registering.
      let woken = false;
      for (const agent of agents) {
        if (agent.nodeId !== nodeId) continue;
        agent.wake();
        woken = true;
      }
      // A node with no agent in this process is reached through its long poll, if it holds one here.
      if (!woken) for (const listener of listeners) listener(nodeId);
    },
    listen(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    register(agent) {
      agents.add(agent);
      return () => {
        agents.delete(agent);
      };
    },
  };
}

/** The agents of this process. The API, the worker and the embedded agent share it. */
export const localAgents: NodeWaker = createNodeWaker();

/**
 * Wakes a node's agent wherever it runs: an agent of this process directly, a standalone one
 * through the API process holding its long poll (a NOTIFY on a server; node-calls-relay.ts).
 * Never fails the caller: a wake-up that does not arrive costs the agent's poll interval.
 */
export function nodeWakeups(
  database: Pick<Database, 'kind' | 'executeSql'>,
  log?: { warn(obj: object, msg: string): void },
): (nodeId: string) => void {
  return (nodeId) => {
    localAgents.wake(nodeId);
    notifyNodeWake(database, nodeId).catch((error: unknown) =>
      log?.warn({ node_id: nodeId, err: error }, 'waking a node through the database failed'),
    );
  };
}
