// One load measurement with autocannon against 127.0.0.1: requests/s and p99 latency.
import autocannon from 'autocannon';

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Changes each request before it is sent (to rotate through accounts, say). */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export async function measure(label: string, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 10,
    method: options.method ?? 'GET',
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body ? { body: options.body } : {}),
    ...(options.setupRequest ? { requests: [{ setupRequest: options.setupRequest }] } : {}),
  });
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function printLoadTable(title: string, results: LoadResult[]) {
  console.log(`\n${title}`);
  console.log('| what | requests/s | p99 | errors | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of results) {
    console.log(
      `| ${r.label} | ${r.requestsPerSecond.toLocaleString('en-US')} | ${r.p99Ms} ms | ${r.errors} | ${r.non2xx} |`,
    );
  }
}
