import { z } from 'zod';
import { text } from './strings.ts';

export const componentHealthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  detail: text().optional(),
  latency_ms: z.number().optional(),
});

export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  version: text(),
  /** When this report was measured (health is measured at most once per HEALTH_MAX_AGE_MS). */
  checked_at: z.iso.datetime(),
  uptime_s: z.number(),
  database: componentHealthSchema.extend({ kind: z.enum(['pglite', 'postgres']) }),
  jobs: componentHealthSchema,
  nodes: componentHealthSchema.extend({ total: z.number().int(), online: z.number().int() }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const csrfResponseSchema = z.object({ csrf_token: text() });
