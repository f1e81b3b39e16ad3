// When a node counts as online; the services module reads it too (placement, display state).

/** A node whose agent has not reported for this long counts as offline: nothing is placed on it. */
export const NODE_OFFLINE_AFTER_MS = 60_000;

/** Whether a node last heard from at `lastSeenAt` counts as online at `now`. */
export function nodeIsOnline(lastSeenAt: Date | null, now: Date): boolean {
  return lastSeenAt !== null && now.getTime() - lastSeenAt.getTime() < NODE_OFFLINE_AFTER_MS;
}
