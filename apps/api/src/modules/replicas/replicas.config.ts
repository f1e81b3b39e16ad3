// The replica loop's variable of the API's configuration (replicas.service.ts failOver).
// `config.ts` spreads `replicasEnvironmentShape` into its schema. The default is the contract's;
// a test that destroys nodes on purpose shortens it (with its agents' AGENT_FENCE_AFTER_MS), so it
// waits for the failover it checks and not for the clock.
import { NODE_FAILOVER_AFTER_MS, PRIMARY_FENCE_AFTER_MS } from '@debesis/contract';
import { z } from 'zod';

export const replicasEnvironmentShape = {
  NODE_FAILOVER_AFTER_MS: z.coerce
    .number()
    .int()
    .min(5000)
    .max(3_600_000)
    .default(NODE_FAILOVER_AFTER_MS)
    .describe(
      'A node not heard from for this long has its workspaces failed over to their standbys, in ' +
        "milliseconds (read by the worker). Keep the agents' `AGENT_FENCE_AFTER_MS` (" +
        `${PRIMARY_FENCE_AFTER_MS / 1000} s) well below it: a primary cut off from the API must stop ` +
        'serving before its standby takes over. Below 60 s (a node counts offline after a minute), a lost ' +
        'node may still be given new standbys until then; they are replaced once it counts offline.',
    ),
};
