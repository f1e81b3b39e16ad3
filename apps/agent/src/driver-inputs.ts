// What a driver's apply read of the desired state, so that a pass after a change can leave alone
// the drivers the change does not concern (a new user re-renders neither the network nor NFS).
//
// The parts read are recorded, not declared: the driver is handed the desired state behind a
// proxy that notes every top-level field it looks at (directly or through any helper), with the
// value it saw. An apply is a function of what it read and of the node, so while every field it
// read holds the same value its apply would do the same again, and the node's side is what the
// drivers' `observe` watches (a daemon that died, a job to start). A declared list would rot the
// day a driver starts reading one more section; a recorded one cannot miss it. Whatever looks at
// the object as a whole (a spread, its keys, JSON) counts as having read all of it.
import type { WorkspaceDesiredState } from '@debesis/contract';

/** Field name → the JSON of the value the driver saw. */
export type DriverInputs = ReadonlyMap<string, string>;

// The key under which a driver that looked at the whole object keeps the whole object's JSON.
const WHOLE = '\0whole';

const json = (value: unknown): string => JSON.stringify(value) ?? 'undefined';

/** `desired` as the driver gets it, and what it has read of it so far. */
export function trackReads(desired: WorkspaceDesiredState): {
  desired: WorkspaceDesiredState;
  inputs: () => DriverInputs;
} {
  const read = new Map<string, string>();
  const note = (key: string | symbol) => {
    if (typeof key === 'string' && !read.has(key)) read.set(key, json(Reflect.get(desired, key)));
  };
  const proxy = new Proxy(desired, {
    get(target, key, receiver) {
      note(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
    has(target, key) {
      note(key);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      note(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      read.set(WHOLE, json(target));
      return Reflect.ownKeys(target);
    },
  });
  return { desired: proxy, inputs: () => new Map(read) };
}

/** Whether every field in `inputs` has the value it had then in `desired`. */
export function sameInputs(inputs: DriverInputs, desired: WorkspaceDesiredState): boolean {
  for (const [key, seen] of inputs) {
    const now = key === WHOLE ? json(desired) : json(Reflect.get(desired, key));
    if (now !== seen) return false;
  }
  return true;
}

/**
 * Whether `next` asks for nothing but a new generation over `before`: the API asking for the
 * workspace to be applied again, which concerns every driver.
 */
export function onlyGenerationChanged(before: WorkspaceDesiredState, next: WorkspaceDesiredState): boolean {
  return json({ ...before, generation: 0 }) === json({ ...next, generation: 0 });
}
