// What a storage node's agent and the control plane say to each other. The agent authenticates
// with a registration token once, then with its own node token (`Authorization: Bearer …`).
import { z } from 'zod';

export const nodeCapacitySchema = z.object({
  /** Bytes the node can hand out to workspace storage, and how much of that is still free. */
  disk_total_bytes: z.number().int().nonnegative(),
  disk_free_bytes: z.number().int().nonnegative(),
  /** Addresses this node can give to workspaces (a loopback alias range locally). */
  addresses: z.array(z.string().min(1)).max(4096),
});
export type NodeCapacity = z.infer<typeof nodeCapacitySchema>;

export const nodeRegisterRequestSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(63)
    .regex(/^[a-z0-9][a-z0-9-]*$/, 'invalid_format'),
  hostname: z.string().min(1).max(255),
  agent_version: z.string().min(1).max(40),
  capacity: nodeCapacitySchema,
});
export type NodeRegisterRequest = z.infer<typeof nodeRegisterRequestSchema>;

export const nodeRegisterResponseSchema = z.object({
  node_id: z.string().uuid(),
  node_token: z.string(),
});
export type NodeRegisterResponse = z.infer<typeof nodeRegisterResponseSchema>;

/**
 * One workspace as the node should run it. `generation` grows with every change the API
 * accepts; the agent reports back the generation it has applied. Feature sections (users,
 * samba, …) join this object as their drivers arrive.
 */
export const workspaceDesiredStateSchema = z.object({
  service_id: z.string(),
  generation: z.number().int().nonnegative(),
  /** running: serve it; stopped: keep data, serve nothing; removed: delete everything. */
  state: z.enum(['running', 'stopped', 'removed']),
});
export type WorkspaceDesiredState = z.infer<typeof workspaceDesiredStateSchema>;

export const nodeDesiredStateResponseSchema = z.object({
  node_id: z.string().uuid(),
  workspaces: z.array(workspaceDesiredStateSchema),
});
export type NodeDesiredStateResponse = z.infer<typeof nodeDesiredStateResponseSchema>;

export const driverStatusSchema = z.object({
  driver: z.string(),
  /** live: the real program runs it; not_live: rendered and checked only, `reason` says why. */
  live: z.boolean(),
  reason: z.string().optional(),
});

export const workspaceReportSchema = z.object({
  service_id: z.string(),
  observed_generation: z.number().int().nonnegative(),
  ok: z.boolean(),
  error: z.string().max(4000).optional(),
  drivers: z.array(driverStatusSchema),
});
export type WorkspaceReport = z.infer<typeof workspaceReportSchema>;

export const nodeReportRequestSchema = z.object({
  agent_version: z.string().min(1).max(40),
  capacity: nodeCapacitySchema,
  workspaces: z.array(workspaceReportSchema).max(10_000),
});
export type NodeReportRequest = z.infer<typeof nodeReportRequestSchema>;

export const nodeReportResponseSchema = z.object({ ok: z.literal(true) });
