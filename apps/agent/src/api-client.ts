// The calls an agent makes to the control plane, typed by the contract. Every answer is
// checked against its schema before anyone uses it. A 401 is its own error, because it means
// "your node token is no longer valid: register again"; everything else is an ApiError that the
// agent retries with back-off.
//
// Everything goes through fetch but a stream call's bytes, which go through node:http(s): undici's
// fetch relays a streamed request body at about half the speed (measured on one machine: ~600 MB/s
// against ~1.2 GB/s for http.request piping the same stream, as fast as a static server), and
// share links' downloads must come close to a static server's speed.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  REPLICA_NAME_HEADER,
  REPLICA_NAME_PATTERN,
  REPLICA_PARENT_HEADER,
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
  nodeStreamMetaHeaders,
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
  /**
   * A standby's pull (contract: replicas.ts): the primary's replica since `parent` (whole without
   * one), once the API has started relaying it. The body has no time limit; `signal` ends it.
   */
  replicaStream(
    nodeToken: string,
    serviceId: string,
    parent: string | undefined,
    signal?: AbortSignal,
  ): Promise<ReplicaStream>;
}

/** A replica as the API relays it from the primary. */
export interface ReplicaStream {
  /** The replica's name (REPLICA_NAME_HEADER). */
  name: string;
  /** The parent it was sent from; absent: whole. */
  parent?: string;
  body: Readable;
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
    timeoutMs: number = options.timeoutMs,
  ): Promise<T> {
    const url = new URL(path, base);
    const where = `${method} /${path}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
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
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await response.text();
    } catch (error) {
      throw fetchFailure(where, error, {
        aborted: options.signal?.aborted,
        timedOut: timeout.aborted,
        timeoutMs,
      });
    }
    return answerOf(where, response.status, text, schema);
  }

  /**
   * POSTs a stream call's bytes as they are read (node:http, see the top comment), and reads the
   * API's answer as `call` does. No time limit: a big file takes its time; `options.signal` ends
   * it. A body that fails midway cuts the upload, so the API never takes it for a whole one.
   */
  async function upload(path: string, token: string, stream: NodeCallStream): Promise<void> {
    const url = new URL(path, base);
    const where = `POST /${path}`;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      let response: IncomingMessage | undefined;
      let settled = false;
      const fail = (reason: string) => {
        if (settled) return;
        settled = true;
        reject(
          options.signal?.aborted
            ? new ApiError(`${where}: aborted`, 'aborted')
            : new ApiError(`${where}: ${reason}`, 'network'),
        );
      };
      const failed = (error: Error) => {
        // Once the API has answered (a 404 before reading the body), its answer says what happened.
        if (!response || options.signal?.aborted)
          fail((error as NodeJS.ErrnoException).code ?? error.message);
      };
      const request = send(
        url,
        {
          method: 'POST',
          signal: options.signal,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            'content-type': 'application/octet-stream',
            [NODE_STREAM_NAME_HEADER]: encodeURIComponent(stream.name),
            ...(stream.size === null
              ? {}
              : { [NODE_STREAM_SIZE_HEADER]: String(stream.size), 'content-length': String(stream.size) }),
            ...nodeStreamMetaHeaders(stream.meta ?? {}),
            ...stream.headers,
          },
        },
        (answered) => {
          response = answered;
          const chunks: Buffer[] = [];
          answered.on('data', (chunk: Buffer) => chunks.push(chunk));
          answered.once('end', () => {
            if (settled) return;
            settled = true;
            resolve({ status: answered.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
          });
          answered.once('error', (error) => fail(error.message));
          answered.once('close', () => fail('the connection closed before the answer ended'));
        },
      );
      request.once('error', failed);
      // The API hands the headers (name, size, range) to its caller at once, before any byte.
      request.flushHeaders();
      pipeline(stream.body, request, (error) => {
        if (error) failed(error);
      });
    });
    answerOf(where, answer.status, answer.text, nodeCallResultResponseSchema);
  }

  /**
   * GETs a stream: its headers within STREAM_HEADERS_TIMEOUTS ordinary time-outs (the API relays a
   * node call: the primary's poll, its snapshot, then its first bytes), its body for as long as it
   * takes. A non-2xx answer is an ApiError as `call` makes.
   */
  async function download(path: string, token: string, signal?: AbortSignal) {
    const url = new URL(path, base);
    const where = `GET /${path.split('?')[0]}`;
    const timeoutMs = options.timeoutMs * STREAM_HEADERS_TIMEOUTS;
    const headersDue = new AbortController();
    const timer = setTimeout(() => headersDue.abort(), timeoutMs);
    // The timer is cleared once the headers came: from then on only a stop ends the body.
    const all = AbortSignal.any([
      headersDue.signal,
      ...(options.signal ? [options.signal] : []),
      ...(signal ? [signal] : []),
    ]);
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'GET',
        signal: all,
        headers: { authorization: `Bearer ${token}`, accept: 'application/octet-stream' },
      });
    } catch (error) {
      throw fetchFailure(where, error, {
        aborted: options.signal?.aborted || signal?.aborted,
        timedOut: headersDue.signal.aborted,
        timeoutMs,
      });
    } finally {
      clearTimeout(timer);
    }
    if (response.status < 200 || response.status > 299)
      refusal(where, response.status, await response.text().catch(() => ''));
    if (!response.body) throw new ApiError(`${where}: ${response.status} without a body`, 'invalid_response');
    return { where, response };
  }

  return {
    replicaStream: async (nodeToken, serviceId, parent, signal) => {
      const query = parent === undefined ? '' : `?parent=${encodeURIComponent(parent)}`;
      const { where, response } = await download(
        `api/v1/nodes/replicas/${encodeURIComponent(serviceId)}/stream${query}`,
        nodeToken,
        signal,
      );
      const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      const name = response.headers.get(REPLICA_NAME_HEADER) ?? '';
      const sentFrom = response.headers.get(REPLICA_PARENT_HEADER) ?? undefined;
      if (
        !REPLICA_NAME_PATTERN.test(name) ||
        (sentFrom !== undefined && !REPLICA_NAME_PATTERN.test(sentFrom))
      ) {
        body.destroy();
        throw new ApiError(`${where}: the stream names no replica`, 'invalid_response');
      }
      return { name, ...(sentFrom === undefined ? {} : { parent: sentFrom }), body };
    },
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
    streamNodeCall: (nodeToken, callId, stream) =>
      upload(`api/v1/nodes/calls/${encodeURIComponent(callId)}/stream`, nodeToken, stream),
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

/** How many ordinary time-outs a stream's headers may take (see `download`). */
const STREAM_HEADERS_TIMEOUTS = 3;

/** Why a fetch threw: the agent stopping, the time-out, or the network. */
function fetchFailure(
  where: string,
  error: unknown,
  why: { aborted: boolean | undefined; timedOut: boolean; timeoutMs: number },
): ApiError {
  if (why.aborted) return new ApiError(`${where}: aborted`, 'aborted');
  if (why.timedOut) return new ApiError(`${where}: no answer within ${why.timeoutMs} ms`, 'timeout');
  const cause = (error as Error).cause as NodeJS.ErrnoException | undefined;
  return new ApiError(`${where}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, 'network');
}

/** A non-2xx answer as the ApiError it is (a 401 its own). */
function refusal(where: string, status: number, text: string): never {
  const detail = errorResponseSchema.pick({ detail: true }).safeParse(parseJson(text)).data?.detail;
  if (status === 401) throw new ApiUnauthorizedError(where, detail);
  throw new ApiError(`${where}: ${status}${detail ? ` ${detail}` : ''}`, 'http', status, detail);
}

/** The API's answer to a call: its value when it is a 2xx the schema takes, else an ApiError. */
function answerOf<T>(where: string, status: number, text: string, schema: z.ZodType<T>): T {
  if (status < 200 || status > 299) refusal(where, status, text);
  const json = parseJson(text);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError(
      `${where}: unexpected answer (${parsed.error.issues[0]?.message ?? 'invalid'})`,
      'invalid_response',
    );
  }
  return parsed.data;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
