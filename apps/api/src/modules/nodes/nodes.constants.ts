// When a node counts as online; the services module reads it too (placement, display state).

/** A node whose agent has not reported for this long counts as offline: nothing is placed on it. */
export const NODE_OFFLINE_AFTER_MS = 60_000;
