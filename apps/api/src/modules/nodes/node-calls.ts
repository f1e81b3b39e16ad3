// Node calls (contract: nodes.ts, "Node calls"): a question the API asks the node that runs a
// service, and waits for. A feature asks through `call`; the call waits here for its node, whose
// agent long-polls `waiting` (GET /nodes/calls) and answers through `answer`
// (POST /nodes/calls/{callId}/result). Only the node a call was handed to may answer it, once,
// before its deadline; after the deadline the caller has its `node_unreachable` and the call is
// gone, so a late answer finds nothing (404).
//
// Inside one process (the embedded product: API, worker and agent together) a caller, its call
// and the node's long poll meet here in memory. Several API processes on one PostgreSQL server
// share the meeting point through a relay (node-calls-relay.ts): calls are offered in the
// database, claimed by the process holding the node's poll, and an answer that lands on another
// process is forwarded to the caller's (the routes do that, with `ownerElsewhere`).
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
import type { NodeCallsRelay } from './node-calls-relay.ts';

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
  /** A replica's parent, as the primary said it sent an increment from it (replicas.ts). */
  replicaParent?: string;
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
/** With a relay, how often a held poll looks for offers even without a notification. */
const RELAY_RECHECK_MS = 5000;
/** How long a nudge that found no held poll waits for the node's next one. */
const NUDGE_KEPT_MS = 5000;

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

/** What a long poll answers: the calls handed out, and whether the node should pull its state now. */
export interface WaitingAnswer {
  calls: NodeCall[];
  wake: boolean;
}

interface Waiter {
  nodeId: string;
  /** Resolves the poll once; false when it had already ended (the calls were not taken). */
  take(calls: NodeCall[], wake?: boolean): boolean;
  /** A claim from the relay is under way; `again`: another offer came meanwhile. */
  claiming: boolean;
  again: boolean;
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
  waiting(nodeId: string, waitMs: number, signal?: AbortSignal): Promise<WaitingAnswer>;
  /**
   * The node's desired state changed: its held poll (in this process) answers at once with
   * `wake`, or the next one does if it comes within a few seconds (the agent polls again at once).
   */
  nudge(nodeId: string): void;
  /** Settles a call with the node's answer; false when no call of this node awaits it (404). */
  answer(nodeId: string, callId: string, answer: NodeCallResultRequest): boolean;
  /** Settles a stream call with the node's bytes; false when no stream call of this node awaits it. */
  deliver(nodeId: string, callId: string, stream: NodeCallStream): boolean;
  /**
   * With a relay: the address of another process that made this node's call and waits for its
   * answer (the route forwards the answer there); undefined when the call is this process's or
   * nobody's.
   */
  ownerElsewhere(nodeId: string, callId: string): Promise<string | undefined>;
  /** Ends every poll with no calls and every pending call as unreachable (the app closes). */
  close(): void;
}

export function createNodeCalls(deps: {
  /** The node the service is placed on, or undefined when it is on none. */
  nodeOf(serviceId: string): Promise<string | undefined>;
  log?: NodeCallsLog;
  /** Several API processes on one server: where calls are offered and claimed between them. */
  relay?: NodeCallsRelay;
  /** Real time: deadlines are timers, not business dates, so a test's moved clock does not apply. */
  nowMs?: () => number;
}): NodeCallsHub {
  const nowMs = deps.nowMs ?? Date.now;
  const { relay } = deps;
  const pending = new Map<string, PendingCall>();
  const waiters = new Set<Waiter>();
  /** Bytes handed to callers and not read to their end yet: closing the hub cuts them. */
  const flowing = new Set<Readable>();
  /** Nudges no held poll took yet: node id → until when the next poll still answers `wake`. */
  const nudged = new Map<string, number>();
  let closed = false;

  function takeNudge(nodeId: string): boolean {
    const until = nudged.get(nodeId);
    if (until === undefined) return false;
    nudged.delete(nodeId);
    return until >= nowMs();
  }

  /** The calls of `nodeId` not handed out yet, oldest first, marked handed out. */
  async function handOut(nodeId: string): Promise<NodeCall[]> {
    if (relay) {
      const calls = await relay.claim(nodeId, NODE_CALLS_PER_POLL);
      for (const call of calls) {
        const entry = pending.get(call.call_id);
        if (entry) entry.handedOut = true;
      }
      return calls;
    }
    const calls: NodeCall[] = [];
    for (const entry of pending.values()) {
      if (calls.length >= NODE_CALLS_PER_POLL) break;
      if (entry.nodeId !== nodeId || entry.handedOut) continue;
      entry.handedOut = true;
      calls.push(entry.call);
    }
    return calls;
  }

  /**
   * Hands the waiter what is offered for its node. One claim at a time per waiter (offers that
   * come meanwhile ask again after it); calls claimed for a poll that ended meanwhile are offered
   * again, so none is lost between a claim and a poll that is gone.
   */
  async function serve(waiter: Waiter): Promise<void> {
    if (waiter.claiming) {
      waiter.again = true;
      return;
    }
    waiter.claiming = true;
    try {
      do {
        waiter.again = false;
        const calls = await handOut(waiter.nodeId);
        if (calls.length === 0) continue;
        if (!waiter.take(calls)) await giveBack(waiter.nodeId, calls);
        return;
      } while (waiter.again);
    } catch (error) {
      deps.log?.warn({ node_id: waiter.nodeId, err: error }, 'node calls: claiming offered calls failed');
    } finally {
      waiter.claiming = false;
    }
  }

  async function giveBack(nodeId: string, calls: NodeCall[]): Promise<void> {
    for (const call of calls) {
      const entry = pending.get(call.call_id);
      if (entry) entry.handedOut = false;
    }
    await relay?.release(
      calls.map((call) => call.call_id),
      nodeId,
    );
  }

  function wakeWaiter(nodeId: string): void {
    for (const waiter of waiters) {
      if (waiter.nodeId !== nodeId) continue;
      void serve(waiter);
      return;
    }
  }
  function nudge(nodeId: string): void {
    for (const waiter of waiters) {
      if (waiter.nodeId === nodeId && waiter.take([], true)) return;
    }
    nudged.set(nodeId, nowMs() + NUDGE_KEPT_MS);
  }
  const unsubscribe = relay?.onOffer(wakeWaiter);
  const unsubscribeWake = relay?.onWake(nudge);

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
        if (!pending.delete(callId)) return;
        resolve(result);
        relay?.withdraw(callId).catch((error: unknown) => {
          deps.log?.warn({ call_id: callId, err: error }, 'node calls: withdrawing a settled call failed');
        });
      }
      const call: NodeCall = {
        call_id: callId,
        service_id: serviceId,
        kind,
        payload,
        deadline: new Date(deadlineMs).toISOString(),
      };
      pending.set(callId, { call, kind, streamed, nodeId, deadlineMs, handedOut: false, settle });
      if (!relay) {
        wakeWaiter(nodeId);
        return;
      }
      relay.offer(call, nodeId).then(
        () => wakeWaiter(nodeId),
        (error: unknown) => {
          deps.log?.warn({ node_id: nodeId, err: error }, 'node calls: offering a call failed');
          settle({ ok: false, code: 'node_unreachable', error: 'the call could not be offered to its node' });
        },
      );
    });
  }

  /** The call `callId` if `nodeId` may answer it now; a late one is settled unreachable. */
  function answerable(nodeId: string, callId: string, streamed: boolean): PendingCall | undefined {
    const entry = pending.get(callId);
    // Another node's call, one not handed out, one answered already or past its deadline: all
    // the same to the asker, so nothing tells them apart.
    // With a relay another process may have handed it out: being the node the call is for is
    // what counts then (its id is a random UUID the node learns only from a poll).
    if (!entry || entry.nodeId !== nodeId || (!entry.handedOut && !relay)) return undefined;
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

    async waiting(nodeId, waitMs, signal) {
      const ready = await handOut(nodeId);
      const wake = takeNudge(nodeId);
      if (ready.length > 0 || wake || waitMs <= 0 || closed || signal?.aborted) return { calls: ready, wake };
      return new Promise((resolve) => {
        let ended = false;
        const done = (calls: NodeCall[], woken = false) => {
          if (ended) return false;
          ended = true;
          clearTimeout(timer);
          clearInterval(recheck);
          signal?.removeEventListener('abort', gone);
          waiters.delete(waiter);
          resolve({ calls, wake: woken || takeNudge(nodeId) });
          return true;
        };
        const gone = () => void done([]);
        const waiter: Waiter = { nodeId, take: done, claiming: false, again: false };
        const timer = setTimeout(gone, waitMs);
        // A notification missed while the relay's connection was being opened again: look anyway.
        const recheck = relay ? setInterval(() => void serve(waiter), RELAY_RECHECK_MS) : undefined;
        signal?.addEventListener('abort', gone, { once: true });
        waiters.add(waiter);
        // An offer between the first look and now.
        if (relay) void serve(waiter);
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

    nudge,

    async ownerElsewhere(nodeId, callId) {
      if (!relay || pending.has(callId)) return undefined;
      const owner = await relay.ownerOf(nodeId, callId);
      return owner && owner !== relay.selfUrl ? owner : undefined;
    },

    close() {
      closed = true;
      unsubscribe?.();
      unsubscribeWake?.();
      for (const waiter of [...waiters]) waiter.take([], false);
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
