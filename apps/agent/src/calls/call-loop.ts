// The node-call loop, beside the reconcile loop: it long-polls the API for calls, runs each (a
// few at once), and answers each. It never registers the node itself: it waits for the identity
// the reconcile loop holds (two loops registering at once would rotate each other's token), and
// on a refused token it backs off until that loop has registered again. On errors it backs off
// like the reconcile loop; stopping aborts the poll and waits for the calls and uploads in
// progress.
//
// A stream call (a share link's download) may upload for hours. It holds one of the CALLS_AT_ONCE
// places only until its upload starts, then counts against STREAM_UPLOADS_AT_ONCE instead, so long
// downloads never hold up a VPN user's config. Beyond that many, a stream call is refused at once,
// before its handler opens anything, with a `failed` that says the node is busy (the API tells
// the visitor to try again in a minute).
import { NODE_STREAM_CALL_KINDS, type NodeCall } from '@debesis/contract';
import { ApiError, type ApiClient } from '../api-client.ts';
import type { NodeCallAnswer, NodeCallStream } from './node-call.ts';
import { errorMessage, type Logger } from '../logger.ts';
import { wakeableSleep } from '../system/wakeable-sleep.ts';

/** How long the API may hold a poll open (the contract's default; its bound is 30 s). */
export const CALL_POLL_WAIT_MS = 25_000;
/** How many calls run at once; more wait for a free place before the next poll. */
export const CALLS_AT_ONCE = 4;
/** How many stream calls may be under way at once (their handlers and uploads); more are refused. */
export const STREAM_UPLOADS_AT_ONCE = 32;

const isStreamCall = (call: NodeCall) => (NODE_STREAM_CALL_KINDS as readonly string[]).includes(call.kind);

export interface CallLoopDeps {
  api: Pick<ApiClient, 'nodeCalls' | 'answerNodeCall' | 'streamNodeCall'>;
  /** The node token once the node is registered; resolves undefined when the agent stops. */
  nodeToken(): Promise<string | undefined>;
  run(call: NodeCall): Promise<NodeCallAnswer>;
  logger: Logger;
  /** The wait after the first failure; it doubles per failure up to maxBackoffMs. */
  retryMs: number;
  maxBackoffMs: number;
  waitMs?: number;
  nowMs?: () => number;
  /** The API said the node's desired state changed: pull it now. */
  onWake?: () => void;
}

export interface CallLoop {
  /** Stops polling and waits for the calls and uploads in progress (abort the API client first). */
  stop(): Promise<void>;
}

export function startCallLoop(deps: CallLoopDeps): CallLoop {
  const nowMs = deps.nowMs ?? Date.now;
  const running = new Set<Promise<void>>();
  const uploads = new Set<Promise<void>>();
  /** Stream calls from their start to the end of their upload: at most STREAM_UPLOADS_AT_ONCE. */
  let streaming = 0;
  let stopped = false;
  const pause = wakeableSleep(() => stopped);

  const answerFailed = (call: NodeCall, error: unknown) =>
    // A 404: the caller stopped waiting (its deadline) or the API restarted; nothing to redo.
    deps.logger.warn(
      { call_id: call.call_id, kind: call.kind, service_id: call.service_id },
      `answering a node call failed: ${errorMessage(error)}`,
    );

  async function answer(token: string, call: NodeCall): Promise<void> {
    const stream = isStreamCall(call);
    if (stream && streaming >= STREAM_UPLOADS_AT_ONCE) {
      const error = `this node is busy: ${STREAM_UPLOADS_AT_ONCE} downloads are under way already`;
      if (!stopped)
        await deps.api
          .answerNodeCall(token, call.call_id, { ok: false, code: 'busy', error })
          .catch((failure: unknown) => answerFailed(call, failure));
      return;
    }
    if (stream) streaming += 1;
    let uploading = false;
    try {
      const outcome = await deps.run(call);
      if ('stream' in outcome) {
        uploading = true;
        startUpload(token, call, outcome.stream);
        return;
      }
      if (stopped) return;
      await deps.api.answerNodeCall(token, call.call_id, outcome);
    } catch (error) {
      answerFailed(call, error);
    } finally {
      if (stream && !uploading) streaming -= 1;
    }
  }

  /** The bytes go up as they come, beside the calls; a stopped agent or a failed upload ends the source too. */
  function startUpload(token: string, call: NodeCall, stream: NodeCallStream): void {
    const task = (async () => {
      try {
        if (!stopped) await deps.api.streamNodeCall(token, call.call_id, stream);
      } catch (error) {
        answerFailed(call, error);
      } finally {
        stream.body.destroy();
        streaming -= 1;
      }
    })().finally(() => uploads.delete(task));
    uploads.add(task);
  }

  function start(token: string, call: NodeCall): void {
    const task = answer(token, call).finally(() => running.delete(task));
    running.add(task);
  }

  async function loop(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      const token = await deps.nodeToken();
      if (!token || stopped) break;
      let calls: NodeCall[];
      try {
        const answer = await deps.api.nodeCalls(token, deps.waitMs ?? CALL_POLL_WAIT_MS);
        calls = answer.calls;
        if (answer.wake) deps.onWake?.();
        failures = 0;
      } catch (error) {
        if (stopped || (error instanceof ApiError && error.failure === 'aborted')) break;
        failures += 1;
        const delay = Math.min(deps.retryMs * 2 ** failures, Math.max(deps.maxBackoffMs, deps.retryMs));
        deps.logger.warn(
          { failures, retry_in_ms: delay },
          `polling for node calls failed: ${errorMessage(error)}`,
        );
        await pause.sleep(delay);
        continue;
      }
      for (const call of calls) {
        if (stopped) break;
        // Its caller has given up: running it now would only do what nobody waits for.
        if (Date.parse(call.deadline) <= nowMs()) {
          deps.logger.debug(
            { call_id: call.call_id, kind: call.kind },
            'node call past its deadline; dropped',
          );
          continue;
        }
        while (running.size >= CALLS_AT_ONCE) await Promise.race(running);
        start(token, call);
      }
    }
  }

  const looping = loop().catch((error: unknown) =>
    deps.logger.error({ err: error }, 'node-call loop crashed'),
  );
  let stopping: Promise<void> | undefined;
  return {
    stop() {
      stopping ??= (async () => {
        stopped = true;
        pause.wake();
        await looping;
        // Calls first: one of them may start an upload as it ends.
        await Promise.all(running);
        await Promise.all(uploads);
      })();
      return stopping;
    },
  };
}
