// Identical concurrent requests are merged into one (spec §7). Two requests are identical when
// method, URL with its query and payload are; bodies that cannot be compared (files) never merge.
import type { AxiosInstance, AxiosRequestConfig } from 'axios';

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    return Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

function payloadKey(data: unknown): string | null {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return `text:${data}`;
  if (data instanceof URLSearchParams) return `form:${data.toString()}`;
  if (data instanceof FormData || data instanceof Blob || data instanceof ArrayBuffer) return null;
  if (ArrayBuffer.isView(data)) return null;
  return `json:${stableJson(data)}`;
}

/** The merge key of a request, or null when it must be sent on its own. */
export function requestKey(http: AxiosInstance, config: AxiosRequestConfig): string | null {
  // A caller's own abort signal would cancel everybody's shared answer.
  if (config.signal) return null;
  const payload = payloadKey(config.data);
  if (payload === null) return null;
  const method = (config.method ?? 'get').toUpperCase();
  return `${method} ${http.getUri(config)} ${payload}`;
}
