// The one way the web app talks to the API (spec §7): same origin, cookies sent, bearer token,
// language and CSRF headers, a 10 s time-out, identical concurrent requests merged, every answer
// checked against its contract schema and every failure turned into an ApiError.
//
//   const overview = await api.get('/api/v1/services/overview', servicesOverviewSchema);
//   await api.put('/api/v1/settings/', { theme: 'dark' }, settingsSchema);
import { CLIENT_TIMING } from '@debesis/contract';
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { z, type ZodType } from 'zod';
import { clientError, toApiError } from './api-error.ts';
import { installDeadline, installRequestHeaders, installSessionRefresh } from './interceptors.ts';
import { requestKey } from './request-key.ts';

export { ApiError, isApiError } from './api-error.ts';

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: QueryParams;
  headers?: Record<string, string>;
  /** A request with its own signal is never merged with another. */
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  baseURL?: string;
  timeoutMs?: number;
}

export interface ApiClient {
  /** The configured axios instance, for the rare call the helpers do not cover (file downloads). */
  readonly http: AxiosInstance;
  readonly timeoutMs: number;
  request<T>(config: AxiosRequestConfig, schema: ZodType<T>): Promise<T>;
  get<T>(url: string, schema: ZodType<T>, options?: RequestOptions): Promise<T>;
  post<T>(url: string, body: unknown, schema: ZodType<T>, options?: RequestOptions): Promise<T>;
  put<T>(url: string, body: unknown, schema: ZodType<T>, options?: RequestOptions): Promise<T>;
  patch<T>(url: string, body: unknown, schema: ZodType<T>, options?: RequestOptions): Promise<T>;
  delete<T>(url: string, schema: ZodType<T>, options?: RequestOptions): Promise<T>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const timeoutMs = options.timeoutMs ?? CLIENT_TIMING.requestTimeoutMs;
  const http = axios.create({
    baseURL: options.baseURL ?? '',
    withCredentials: true,
    headers: { Accept: 'application/json' },
    // Tells a time-out (ETIMEDOUT) apart from an aborted connection, should an adapter time out.
    transitional: { clarifyTimeoutError: true },
  });
  installRequestHeaders(http);
  installDeadline(http, timeoutMs);
  installSessionRefresh(http);

  const inFlight = new Map<string, Promise<AxiosResponse<unknown>>>();

  function send(config: AxiosRequestConfig): Promise<AxiosResponse<unknown>> {
    const key = requestKey(http, config);
    if (key === null) return http.request<unknown>(config);
    const existing = inFlight.get(key);
    if (existing) return existing;
    const started = http.request<unknown>(config).finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  async function request<T>(config: AxiosRequestConfig, schema: ZodType<T>): Promise<T> {
    let response: AxiosResponse<unknown>;
    try {
      response = await send(config);
    } catch (error) {
      throw toApiError(error);
    }
    const parsed = schema.safeParse(response.data);
    if (!parsed.success) throw clientError('invalid_response', response.status, parsed.error);
    return parsed.data;
  }

  const withBody =
    (method: 'POST' | 'PUT' | 'PATCH') =>
    <T>(url: string, body: unknown, schema: ZodType<T>, requestOptions: RequestOptions = {}): Promise<T> =>
      request({ ...requestOptions, method, url, data: body }, schema);

  return {
    http,
    timeoutMs,
    request,
    get: (url, schema, requestOptions = {}) => request({ ...requestOptions, method: 'GET', url }, schema),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
    delete: (url, schema, requestOptions = {}) =>
      request({ ...requestOptions, method: 'DELETE', url }, schema),
  };
}

export const api = createApiClient();

/** The schema of an answer nobody reads (204 No Content, or a body the caller ignores). */
export const noContent = z.unknown().transform(() => undefined);
