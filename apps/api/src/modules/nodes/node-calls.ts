// Node calls (contract: nodes.ts, "Node calls"): a question the API asks the node that runs a
// service, and waits for. A feature asks through `call`; the call waits here for its node, whose
// agent long-polls `waiting` (GET /nodes/calls) and answers through `answer`
// (POST /nodes/calls/{callId}/result). Only the node a call was handed to may answer it, once,
// before its deadline; after the deadline the caller has its `node_unreachable` and the call is
// gone, so a late answer finds nothing (404).
//
// Why in memory: the API is one process (API, worker and embedded agent share it; README
// "Node calls"). A caller, its call and the node's long poll therefore meet here without the
// database. Several API processes behind a balancer would need the meeting point shared: the
// call in PostgreSQL and LISTEN/NOTIFY to wake the process holding the node's poll and the one
// holding the caller. Nothing else assumes one process, so that is the one place to change.
//
// Nothing of a payload's answer is stored or logged: a VPN config holds the user's private key.
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  nodeCallPayloadSchemas,
  nodeCallResultSchemas,
  nodeStreamCallPayloadSchemas,
  type NodeStreamCallKind,
  type NodeStreamMeta,
  type NodeStreamCallPayload,
  type ErrorCode,
  type NodeCall,
  type NodeCallKind,
  type NodeCallPayload,
  type NodeCallRefusal,
  type NodeCallResult,
  type NodeCallResultRequest,
} from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';

/**
 * Why a node call got no answer: the service is on no node, its node did not answer by the
 * deadline, or the node answered that it cannot (no such user there, a kind it does not know, a
 * failure in its own words).
 */
export type NodeCallFailureCode = 'not_placed' | 'node_unreachable' | NodeCallRefusal;

/** A stream call's answer: the node's bytes as they come, with what it said of them. */
export interface NodeCallStream {
  /** The file's name, as the node gave it. */
  name: string;
  /** Its length in bytes, when the node said. */
  size: number | null;
  /** Read it to its end (or destroy it): the node's upload waits on it. */
  body: Readable;
  /** What else the node said of the bytes (a range, the file's version). */
  meta?: NodeStreamMeta;
}

type Failure = { ok: false; code: NodeCallFailureCode; error: string };

/** Asks the node that runs a service a question and waits for its answer (contract: node calls). */
export interface NodeCalls {
  call<K extends NodeCallKind>(
    serviceId: string,
    kind: K,
    payload: NodeCallPayload<K>,
    options?: { timeoutMs?: number },
  ): Promise<{ ok: true; result: NodeCallResult<K> } | Failure>;
  /** A stream call (contract: NODE_STREAM_CALL_KINDS): the answer is bytes. */
  stream<K extends NodeStreamCallKind>(
    serviceId: string,
    kind: K,
    payload: NodeStreamCallPayload<K>,
    options?: { timeoutMs?: number },
  ): Promise<{ ok: true; stream: NodeCallStream } | Failure>;
}

/** How long a caller waits for the node unless it says otherwise. */
export const NODE_CALL_TIMEOUT_MS = 10_000;
/** The most calls one long poll hands out (the contract's bound). */
export const NODE_CALLS_PER_POLL = 100;

type Answer<K extends NodeCallKind> = { ok: true; result: NodeCallResult<K> } | Failure;
type Outcome = Answer<NodeCallKind> | { ok: true; stream: NodeCallStream };

interface PendingCall {
  call: NodeCall;
  kind: NodeCallKind | NodeStreamCallKind;
  /** A stream call: answered through `deliver`, not `answer`. */
  streamed: boolean;
  nodeId: string;
  deadlineMs: number;
  /** Handed to the node's poll: from then on (and only then) the node may answer it. */
  handedOut: boolean;
  settle(outcome: Outcome): void;
}

interface Waiter {
  nodeId: string;
  take(calls: NodeCall[]): void;
}

export interface NodeCallsLog {
  warn(obj: object, msg: string): void;
}

export interface NodeCallsHub extends NodeCalls {
  /**
   * The calls waiting for `nodeId`, at once when there are any; else the first that come within
   * `waitMs`, or none. Resolves with none when `signal` aborts (the node went away) or the hub
   * closes. A call is handed out once: a poll lost on the way costs that call its deadline.
   */
  waiting(nodeId: string, waitMs: number, signal?: AbortSignal): Promise<NodeCall[]>;
  /** Settles a call with the node's answer; false when no call of this node awaits it (404). */
  answer(nodeId: string, callId: string, answer: NodeCallResultRequest): boolean;
  /** Settles a stream call with the node's bytes; false when no stream call of this node awaits it. */
  deliver(nodeId: string, callId: string, stream: NodeCallStream): boolean;
  /** Ends every poll with no calls and every pending call as unreachable (the app closes). */
  close(): void;
}

export function createNodeCalls(deps: {
  /** The node the service is placed on, or undefined when it is on none. */
  nodeOf(serviceId: string): Promise<string | undefined>;
  log?: NodeCallsLog;
  /** Real time: deadlines are timers, not business dates, so a test's moved clock does not apply. */
  nowMs?: () => number;
}): NodeCallsHub {
  const nowMs = deps.nowMs ?? Date.now;
  const pending = new Map<string, PendingCall>();
  const waiters = new Set<Waiter>();
  /** Bytes handed to callers and not read to their end yet: closing the hub cuts them. */
  const flowing = new Set<Readable>();
  let closed = false;

  /** The calls of `nodeId` not handed out yet, oldest first, marked handed out. */
  function handOut(nodeId: string): NodeCall[] {
    const calls: NodeCall[] = [];
    for (const entry of pending.values()) {
      if (calls.length >= NODE_CALLS_PER_POLL) break;
      if (entry.nodeId !== nodeId || entry.handedOut) continue;
      entry.handedOut = true;
      calls.push(entry.call);
    }
    return calls;
  }

  function wakeWaiter(nodeId: string): void {
    for (const waiter of waiters) {
      if (waiter.nodeId !== nodeId) continue;
      const calls = handOut(nodeId);
      if (calls.length > 0) waiter.take(calls);
      return;
    }
  }

  /** Puts a call up for its node and waits for its outcome (or the deadline). */
  async function ask(
    serviceId: string,
    kind: NodeCallKind | NodeStreamCallKind,
    payload: Record<string, unknown>,
    streamed: boolean,
    options: { timeoutMs?: number },
  ): Promise<Outcome> {
    if (closed) return { ok: false, code: 'node_unreachable', error: 'the API is shutting down' };
    const nodeId = await deps.nodeOf(serviceId);
    if (!nodeId) return { ok: false, code: 'not_placed', error: 'the service is on no node' };
    const timeoutMs = options.timeoutMs ?? NODE_CALL_TIMEOUT_MS;
    const deadlineMs = nowMs() + timeoutMs;
    const callId = randomUUID();
    return new Promise<Outcome>((resolve) => {
      const timer = setTimeout(() => {
        settle({
          ok: false,
          code: 'node_unreachable',
          error: `the node did not answer within ${timeoutMs} ms`,
        });
      }, timeoutMs);
      function settle(result: Outcome): void {
        clearTimeout(timer);
        pending.delete(callId);
        resolve(result);
      }
      pending.set(callId, {
        call: {
          call_id: callId,
          service_id: serviceId,
          kind,
          payload,
          deadline: new Date(deadlineMs).toISOString(),
        },
        kind,
        streamed,
        nodeId,
        deadlineMs,
        handedOut: false,
        settle,
      });
      wakeWaiter(nodeId);
    });
  }

  /** The call `callId` if `nodeId` may answer it now; a late one is settled unreachable. */
  function answerable(nodeId: string, callId: string, streamed: boolean): PendingCall | undefined {
    const entry = pending.get(callId);
    // Another node's call, one not handed out, one answered already or past its deadline: all
    // the same to the asker, so nothing tells them apart.
    if (!entry || entry.nodeId !== nodeId || !entry.handedOut) return undefined;
    if (nowMs() > entry.deadlineMs) {
      entry.settle({ ok: false, code: 'node_unreachable', error: 'the node answered after the deadline' });
      return undefined;
    }
    // A refusal may answer either kind; bytes only a stream call, a result only a JSON one.
    return streamed && !entry.streamed ? undefined : entry;
  }

  const hub: NodeCallsHub = {
    async call<K extends NodeCallKind>(
      serviceId: string,
      kind: K,
      payload: NodeCallPayload<K>,
      options: { timeoutMs?: number } = {},
    ): Promise<Answer<K>> {
      const parsedPayload = nodeCallPayloadSchemas[kind].safeParse(payload);
      // The types already promise a valid payload; this keeps a bad one from ever reaching a node.
      if (!parsedPayload.success) throw new Error(`node call ${kind}: invalid payload`);
      // The schema of `kind` checked the result in `answer`, so this is its type.
      return (await ask(serviceId, kind, parsedPayload.data, false, options)) as Answer<K>;
    },

    async stream<K extends NodeStreamCallKind>(
      serviceId: string,
      kind: K,
      payload: NodeStreamCallPayload<K>,
      options: { timeoutMs?: number } = {},
    ) {
      const parsedPayload = nodeStreamCallPayloadSchemas[kind].safeParse(payload);
      if (!parsedPayload.success) throw new Error(`node call ${kind}: invalid payload`);
      const outcome = await ask(serviceId, kind, parsedPayload.data, true, options);
      if (outcome.ok && !('stream' in outcome)) throw new Error(`node call ${kind}: answered without bytes`);
      return outcome;
    },

    waiting(nodeId, waitMs, signal) {
      const ready = handOut(nodeId);
      if (ready.length > 0 || waitMs <= 0 || closed || signal?.aborted) return Promise.resolve(ready);
      return new Promise((resolve) => {
        const done = (calls: NodeCall[]) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          waiters.delete(waiter);
          resolve(calls);
        };
        const gone = () => done([]);
        const waiter: Waiter = { nodeId, take: done };
        const timer = setTimeout(gone, waitMs);
        signal?.addEventListener('abort', gone, { once: true });
        waiters.add(waiter);
      });
    },

    answer(nodeId, callId, answer) {
      const entry = answerable(nodeId, callId, false);
      if (!entry) return false;
      if (!answer.ok) {
        entry.settle({ ok: false, code: answer.code, error: answer.error });
        return true;
      }
      if (entry.streamed) {
        entry.settle({ ok: false, code: 'failed', error: 'the node answered a stream call without bytes' });
        return true;
      }
      const result = nodeCallResultSchemas[entry.kind as NodeCallKind].safeParse(answer.result);
      if (result.success) entry.settle({ ok: true, result: result.data });
      else {
        // The result's content stays out of the log (a config holds a private key).
        deps.log?.warn(
          { node_id: nodeId, call_id: callId, kind: entry.kind },
          'a node answered a call with a malformed result',
        );
        entry.settle({ ok: false, code: 'failed', error: 'the node answered with a malformed result' });
      }
      return true;
    },

    deliver(nodeId, callId, stream) {
      const entry = answerable(nodeId, callId, true);
      if (!entry) return false;
      flowing.add(stream.body);
      stream.body.once('close', () => flowing.delete(stream.body));
      entry.settle({ ok: true, stream });
      return true;
    },

    close() {
      closed = true;
      for (const waiter of [...waiters]) waiter.take([]);
      for (const entry of [...pending.values()])
        entry.settle({ ok: false, code: 'node_unreachable', error: 'the API is shutting down' });
      for (const body of [...flowing]) body.destroy();
    },
  };
  return hub;
}

const HTTP_ERROR: Record<NodeCallFailureCode, ErrorCode> = {
  not_placed: 'service_not_placed',
  node_unreachable: 'node_unreachable',
  not_found: 'node_not_ready',
  unsupported: 'node_unsupported',
  busy: 'node_busy',
  too_large: 'node_call_failed',
  failed: 'node_call_failed',
};

/**
 * The error a feature's route answers for a failed node call. `not_found` means the node does
 * not hold what was asked for yet (a VPN user the node has not applied): the caller's own
 * resource was already checked by the feature, so it is "not ready", never a 404. A feature may
 * name its own code for a failure (`{ not_placed: 'vpn_not_placed' }`); the rest stay generic.
 */
export function nodeCallError(
  code: NodeCallFailureCode,
  own: Partial<Record<NodeCallFailureCode, ErrorCode>> = {},
): AppError {
  return new AppError(own[code] ?? HTTP_ERROR[code]);
}
