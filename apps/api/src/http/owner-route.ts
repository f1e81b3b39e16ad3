// The options every route of a signed-in, verified owner repeats: its access level, the bearer
// security the OpenAPI document shows, and the module's tags. A routes file then says only what
// is particular to a route: its summary, params, body and responses.
import type { FastifySchema } from 'fastify';

const BEARER = [{ bearer: [] }];

/** `route({ summary, params, … })` gives a route's options for the verified owner, under `tags`. */
export function ownerRoutes(tags: string[]) {
  return <const S extends FastifySchema>(schema: S) => ({
    config: { access: 'verified' as const },
    schema: { tags, security: BEARER, ...schema },
  });
}
