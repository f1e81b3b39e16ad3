import { NODE_CALL_KINDS, NODE_STREAM_CALL_KINDS } from '@debesis/contract';
import { describe, expect, it } from 'vitest';
import { createDefaultDrivers } from '../drivers/registry.ts';
import { nodeCallResponders } from './responders.ts';

describe('node call responders', () => {
  const responders = nodeCallResponders(createDefaultDrivers());
  const answering = (kind: string) =>
    responders.filter((responder) => Object.keys(responder.calls ?? {}).includes(kind)).map((r) => r.name);

  it('answer every node call kind of the contract, each in exactly one place', () => {
    const kinds = [...NODE_CALL_KINDS, ...NODE_STREAM_CALL_KINDS];
    // A kind answered twice would be answered by the first only (runNodeCall), silently.
    expect(Object.fromEntries(kinds.map((kind) => [kind, answering(kind).length]))).toEqual(
      Object.fromEntries(kinds.map((kind) => [kind, 1])),
    );
  });

  it('answer no kind the contract does not know', () => {
    const known = new Set<string>([...NODE_CALL_KINDS, ...NODE_STREAM_CALL_KINDS]);
    const extra = responders
      .flatMap((responder) => Object.keys(responder.calls ?? {}))
      .filter((k) => !known.has(k));
    expect(extra).toEqual([]);
  });
});
