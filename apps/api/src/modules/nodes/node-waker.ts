// Waking a node's agent so that it pulls its desired state now instead of at its next poll.
// Agents running in this process (the embedded local node) register here and are woken
// directly; a remote agent has no inbound channel, so for it a wake-up is a no-op and its next
// poll (AGENT_POLL_INTERVAL_MS) picks the change up. Waking is only ever a shortcut: nothing
// depends on it having happened.

/** An agent in this process: its node id once it has registered, and its wake-up. */
export interface LocalAgent {
  readonly nodeId: string | undefined;
  wake(): void;
}

export interface NodeWaker {
  wake(nodeId: string): void;
  /** Adds an in-process agent; the function returned removes it again. */
  register(agent: LocalAgent): () => void;
}

export function createNodeWaker(): NodeWaker {
  const agents = new Set<LocalAgent>();
  return {
    wake(nodeId) {
      // Asked lazily: the embedded agent learns its node id only after registering.
      for (const agent of agents) if (agent.nodeId === nodeId) agent.wake();
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
