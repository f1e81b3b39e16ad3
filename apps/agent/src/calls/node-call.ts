// Running one node call (contract: nodes.ts, "Node calls"): the API asks this node a question
// about one workspace (a VPN user's config, end sessions now) and waits for the answer. A driver
// or daemon definition answers a kind through its `calls` handlers; this file finds the handler,
// gives it the workspace as last applied, and turns whatever happens into the answer the API
// takes. Nothing of a result is logged: a VPN config holds the user's private key.
import type { Readable } from 'node:stream';
import {
  NODE_CALL_KINDS,
  NODE_STREAM_CALL_KINDS,
  nodeCallPayloadSchemas,
  nodeCallResultSchemas,
  nodeStreamCallPayloadSchemas,
  type NodeStreamCallKind,
  type NodeStreamCallPayload,
  type NodeCall,
  type NodeCallKind,
  type NodeCallPayload,
  type NodeCallRefusal,
  type NodeCallResult,
  type NodeCallResultRequest,
  type NodeStreamMeta,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import type { CommandRunner } from '../exec/run-command.ts';
import { errorMessage, type Logger } from '../logger.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

/** What a handler gets beside its payload. */
export interface NodeCallContext {
  /** The workspace's desired state as last applied by a reconcile pass on this node. */
  desired: WorkspaceDesiredState;
  layout: WorkspaceLayout;
  /** The agent's data folder (absolute). */
  dataDir: string;
  run: CommandRunner;
  logger: Logger;
}

/**
 * Answers one kind. It runs beside the reconcile loop, not inside a pass (a call must not wait
 * behind a pass that starts daemons), so it must be safe while its driver applies: read what the
 * driver keeps, and change only what an apply would leave alone (end sessions, issue a missing
 * client certificate).
 */
export type NodeCallHandler<K extends NodeCallKind> = (
  payload: NodeCallPayload<K>,
  context: NodeCallContext,
) => Promise<NodeCallResult<K>>;

/** A stream call's answer (contract: NODE_STREAM_CALL_KINDS): bytes, uploaded as they come. */
export interface NodeCallStream {
  name: string;
  /** Its length in bytes, when known. */
  size: number | null;
  /** What else it says of its bytes (a range, the file's version and date), sent as headers. */
  meta?: NodeStreamMeta;
  /** What a kind says of its bytes beyond `meta`, as response headers (a replica's parent). */
  headers?: Record<string, string>;
  body: Readable;
}

/** Answers one stream kind: the bytes to upload (a refusal throws, as any handler's). */
export type NodeStreamCallHandler<K extends NodeStreamCallKind> = (
  payload: NodeStreamCallPayload<K>,
  context: NodeCallContext,
) => Promise<NodeCallStream>;

/** The kinds a driver answers (a kind it leaves out is another driver's, or `unsupported`). */
export type NodeCallHandlers = Partial<
  { [K in NodeCallKind]: NodeCallHandler<K> } & { [K in NodeStreamCallKind]: NodeStreamCallHandler<K> }
>;

/** Whoever answers calls: a driver, or a set of calls that belongs to none (storage-files). */
export interface NodeCallResponder {
  readonly name: string;
  readonly calls?: NodeCallHandlers;
}

/** What the agent sends for a call: an answer as JSON, or a stream call's bytes. */
export type NodeCallAnswer = NodeCallResultRequest | { ok: true; stream: NodeCallStream };

/** A refusal in the API's terms (the contract's NODE_CALL_REFUSALS), with the reason in words. */
export class NodeCallError extends Error {
  constructor(
    readonly code: NodeCallRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'NodeCallError';
  }
}

const MAX_ERROR_LENGTH = 4000;

const refused = (code: NodeCallError['code'], error: string): NodeCallResultRequest => ({
  ok: false,
  code,
  error: error.slice(0, MAX_ERROR_LENGTH),
});

const isKind = (kind: string): kind is NodeCallKind => (NODE_CALL_KINDS as readonly string[]).includes(kind);
const isStreamKind = (kind: string): kind is NodeStreamCallKind =>
  (NODE_STREAM_CALL_KINDS as readonly string[]).includes(kind);

export interface NodeCallDeps {
  /** Whose handlers answer, in the registry's order (the first that has the kind). */
  handlers: readonly NodeCallResponder[];
  /** A workspace this node holds, as last applied; undefined for one it does not. */
  applied(serviceId: string): WorkspaceDesiredState | undefined;
  layout(serviceId: string): WorkspaceLayout;
  dataDir: string;
  run: CommandRunner;
  logger: Logger;
}

/** Runs `call` and says what to answer; never throws. */
export async function runNodeCall(call: NodeCall, deps: NodeCallDeps): Promise<NodeCallAnswer> {
  const { kind } = call;
  const known = isKind(kind) || isStreamKind(kind);
  const handler = known ? deps.handlers.find((driver) => driver.calls?.[kind])?.calls?.[kind] : undefined;
  if (!known || !handler) return refused('unsupported', `this node does not answer ${kind}`);
  const desired = deps.applied(call.service_id);
  if (!desired || desired.state === 'removed')
    return refused('not_found', 'this node does not hold the workspace');
  const payload = (
    isKind(kind) ? nodeCallPayloadSchemas[kind] : nodeStreamCallPayloadSchemas[kind]
  ).safeParse(call.payload);
  if (!payload.success) return refused('failed', `a ${kind} call with a malformed payload`);
  try {
    const context: NodeCallContext = {
      desired,
      layout: deps.layout(call.service_id),
      dataDir: deps.dataDir,
      run: deps.run,
      logger: deps.logger,
    };
    // The payload is `kind`'s (checked above); TypeScript cannot follow the kind through the lookup.
    const result: unknown = await (handler as (payload: never, context: NodeCallContext) => Promise<unknown>)(
      payload.data as never,
      context,
    );
    if (isStreamKind(kind)) return { ok: true, stream: result as NodeCallStream };
    const checked = nodeCallResultSchemas[kind].safeParse(result);
    if (!checked.success) return refused('failed', `the ${kind} handler gave a malformed result`);
    return { ok: true, result: checked.data };
  } catch (error) {
    if (error instanceof NodeCallError) return refused(error.code, error.message);
    return refused('failed', errorMessage(error));
  }
}
