// Values derived from a workspace's users, groups and shares, kept per service until its
// generation moves. Every change to those bumps the generation in the same transaction
// (ARCHITECTURE "Desired state and the agent"), so a value read at a generation stays right
// until the generation changes. Read after the service row, a value can only be newer than the
// row's generation says; the next generation replaces it.

/** Entries kept at most; then the cache starts over (cheaper than tracking use). */
export const GENERATION_CACHE_MAX = 10_000;

export function createGenerationCache<T>(max = GENERATION_CACHE_MAX) {
  const entries = new Map<string, { generation: number; value: T }>();
  return {
    get(id: string, generation: number): T | undefined {
      const entry = entries.get(id);
      return entry?.generation === generation ? entry.value : undefined;
    },
    set(id: string, generation: number, value: T): void {
      if (entries.size >= max && !entries.has(id)) entries.clear();
      entries.set(id, { generation, value });
    },
  };
}

export type GenerationCache<T> = ReturnType<typeof createGenerationCache<T>>;
