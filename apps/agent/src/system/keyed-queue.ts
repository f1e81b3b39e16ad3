// Work that must not overlap per key (a storage's snapshots, its replicas, a daemon's management
// socket), while different keys run side by side: each call runs after every earlier call with
// the same key has settled, whatever its outcome. A key's entry goes once its queue is empty.

export type KeyedQueue = <T>(key: string, work: () => Promise<T>) => Promise<T>;

export function createKeyedQueue(): KeyedQueue {
  const queues = new Map<string, Promise<unknown>>();
  return <T>(key: string, work: () => Promise<T>): Promise<T> => {
    const previous = queues.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return next;
  };
}
