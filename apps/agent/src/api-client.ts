// The calls an agent makes to the control plane, typed by the contract. Every answer is
// checked against its schema before anyone uses it. A 401 is its own error, because it means
// "your node token is no longer valid: register again"; everything else is an ApiError that the
// agent retries with back-off.
import type { Readable } from 'node:stream';
import {
  NODE_STREAM_NAME_HEADER,
  NODE_STREAM_SIZE_HEADER,
  errorResponseSchema,
  nodeCallResultRequestSchema,
  nodeCallResultResponseSchema,
  nodeCallsResponseSchema,
  nodeDesiredStateResponseSchema,
  nodeRegisterRequestSchema,
  nodeRegisterResponseSchema,
  nodeReportRequestSchema,
  nodeReportResponseSchema,
  type NodeCallResultRequest,
  type NodeCallsResponse,
  type NodeDesiredStateResponse,
  type NodeRegisterRequest,
  type NodeRegisterResponse,
  type NodeReportRequest,
} from '@debesis/contract';
import type { z } from 'zod';
import type { NodeCallStream } from './calls/node-call.ts';

export type ApiFailure = 'network' | 'timeout' | 'http' | 'invalid_response' | 'aborted';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly failure: ApiFailure,
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The API answered 401: the token used (node or registration token) is not accepted. */
export class ApiUnauthorizedError extends ApiError {
  constructor(where: string, detail?: string) {
    super(`${where}: 401 ${detail ?? 'unauthorized'}`, 'http', 401, detail);
    this.name = 'ApiUnauthorizedError';
  }
}

export interface ApiClient {
  register(registrationToken: string, body: NodeRegisterRequest): Promise<NodeRegisterResponse>;
  desiredState(nodeToken: string): Promise<NodeDesiredStateResponse>;
  report(nodeToken: string, body: NodeReportRequest): Promise<void>;
  /** The calls waiting for this node; the API holds the request up to `waitMs` until one comes. */
  nodeCalls(nodeToken: string, waitMs: number): Promise<NodeCallsResponse>;
  /** This node's answer to a call (an ApiError 404 when the API no longer awaits it). */
  answerNodeCall(nodeToken: string, callId: string, body: NodeCallResultRequest): Promise<void>;
  /**
   * A stream call's bytes, uploaded as they are read (contract: NODE_STREAM_CALL_KINDS); resolves
   * once the API's caller has them all. No overall time limit: a big file takes its time.
   */
  streamNodeCall(nodeToken: string, callId: string, stream: NodeCallStream): Promise<void>;
}

export interface ApiClientOptions {
  /** Base URL of the API; calls go to `<baseUrl>/api/v1/nodes/…`. */
  baseUrl: string;
  timeoutMs: number;
  /** Aborts every call in flight (the agent is stopping). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const doFetch = options.fetch ?? fetch;

  async function call<T>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    schema: z.ZodType<T>,
    body?: unknown,
    timeoutMs: number | null = options.timeoutMs,
    /** Bytes instead of JSON: sent as they are read, with these headers. */
    raw?: { body: Readable; headers: Record<string, string> },
  ): Promise<T> {
    const url = new URL(path, base);
    const where = `${method} /${path}`;
    const timeout = timeoutMs === null ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [options.signal, timeout].filter((each) => each !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method,
        signal,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...raw?.headers,
        },
        // A stream body needs `duplex: 'half'` (undici); the DOM's types know neither.
        ...(raw
          ? ({ body: raw.body, duplex: 'half' } as unknown as RequestInit)
          : { body: body === undefined ? undefined : JSON.stringify(body) }),
      });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw new ApiError(`${where}: aborted`, 'aborted');
      if (timeout?.aborted) throw new ApiError(`${where}: no answer within ${timeoutMs} ms`, 'timeout');
      const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
      const reason = cause?.code ?? cause?.message ?? (error as Error).message;
      throw new ApiError(`${where}: ${reason}`, 'network');
    }

    const json = parseJson(text);
    if (!response.ok) {
      const detail = errorResponseSchema.pick({ detail: true }).safeParse(json).data?.detail;
      if (response.status === 401) throw new ApiUnauthorizedError(where, detail);
      throw new ApiError(
        `${where}: ${response.status}${detail ? ` ${detail}` : ''}`,
        'http',
        response.status,
        detail,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(
        `${where}: unexpected answer (${parsed.error.issues[0]?.message ?? 'invalid'})`,
        'invalid_response',
      );
    }
    return parsed.data;
  }

  return {
    register: async (registrationToken, body) =>
      call(
        'POST',
        'api/v1/nodes/register',
        registrationToken,
        nodeRegisterResponseSchema,
        nodeRegisterRequestSchema.parse(body),
      ),
    desiredState: async (nodeToken) =>
      call('GET', 'api/v1/nodes/desired-state', nodeToken, nodeDesiredStateResponseSchema),
    report: async (nodeToken, body) => {
      await call(
        'POST',
        'api/v1/nodes/report',
        nodeToken,
        nodeReportResponseSchema,
        nodeReportRequestSchema.parse(body),
      );
    },
    // The poll is held open by design: its time-out is the wait plus an ordinary call's.
    nodeCalls: async (nodeToken, waitMs) =>
      call(
        'GET',
        `api/v1/nodes/calls?wait_ms=${waitMs}`,
        nodeToken,
        nodeCallsResponseSchema,
        undefined,
        waitMs + options.timeoutMs,
      ),
    streamNodeCall: async (nodeToken, callId, stream) => {
      await call(
        'POST',
        `api/v1/nodes/calls/${encodeURIComponent(callId)}/stream`,
        nodeToken,
        nodeCallResultResponseSchema,
        undefined,
        null,
        {
          body: stream.body,
          headers: {
            'content-type': 'application/octet-stream',
            [NODE_STREAM_NAME_HEADER]: encodeURIComponent(stream.name),
            ...(stream.size === null ? {} : { [NODE_STREAM_SIZE_HEADER]: String(stream.size) }),
          },
        },
      );
    },
    answerNodeCall: async (nodeToken, callId, body) => {
      await call(
        'POST',
        `api/v1/nodes/calls/${encodeURIComponent(callId)}/result`,
        nodeToken,
        nodeCallResultResponseSchema,
        nodeCallResultRequestSchema.parse(body),
      );
    },
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
