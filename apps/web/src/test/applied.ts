// What the workspace fixtures share: one moment for every time they hold, and the node's answer
// once it has applied a change, for a resource and for a daemon's status.

export const AT = '2026-01-10T09:00:00.000Z';

/** A resource (user, group, share, export…) made at AT and applied by the node. */
export const APPLIED_RESOURCE = {
  apply_status: 'applied',
  apply_error: null,
  created_at: AT,
  updated_at: AT,
} as const;

/** A daemon placed at the workspace's address whose generation 4 the node applied and reported at AT. */
export const APPLIED_DAEMON = {
  placed: true,
  address: '127.0.10.7',
  apply_status: 'applied',
  generation: 4,
  observed_generation: 4,
  reported_at: AT,
} as const;
