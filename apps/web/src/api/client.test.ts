import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { i18n } from '../i18n/i18n.ts';
import { server } from '../test/server.ts';
import { ApiError, createApiClient } from './client.ts';

const echoSchema = z.object({
  authorization: z.string().nullable(),
  language: z.string().nullable(),
  csrf: z.string().nullable(),
});

/** Answers with the headers the request arrived with. */
function echoHeaders({ request }: { request: Request }) {
  return HttpResponse.json({
    authorization: request.headers.get('authorization'),
    language: request.headers.get('accept-language'),
    csrf: request.headers.get('x-csrf-token'),
  });
}

function setCookie(name: string, value: string): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/`;
}

describe('api client headers', () => {
  it('sends the stored access token as a bearer token', async () => {
    server.use(http.get('/api/v1/echo', echoHeaders));
    window.localStorage.setItem(STORAGE_KEYS.accessToken, 'access-123');

    const answer = await createApiClient().get('/api/v1/echo', echoSchema);

    expect(answer.authorization).toBe('Bearer access-123');
  });

  it('sends no authorization header without a stored token', async () => {
    server.use(http.get('/api/v1/echo', echoHeaders));

    const answer = await createApiClient().get('/api/v1/echo', echoSchema);

    expect(answer.authorization).toBeNull();
  });

  it('sends the current interface language', async () => {
    server.use(http.get('/api/v1/echo', echoHeaders));
    const client = createApiClient();

    expect((await client.get('/api/v1/echo', echoSchema)).language).toBe('en');
    await i18n.changeLanguage('lt');
    expect((await client.get('/api/v1/echo', echoSchema)).language).toBe('lt');
  });

  it('echoes the csrf cookie on changing requests but not on reads', async () => {
    server.use(http.get('/api/v1/echo', echoHeaders), http.post('/api/v1/echo', echoHeaders));
    setCookie(CSRF_COOKIE, 'csrf-abc');
    const client = createApiClient();

    expect((await client.post('/api/v1/echo', { a: 1 }, echoSchema)).csrf).toBe('csrf-abc');
    expect((await client.get('/api/v1/echo', echoSchema)).csrf).toBeNull();
  });

  it('fetches a csrf token once when the cookie is missing, then uses the cookie', async () => {
    let csrfCalls = 0;
    server.use(
      http.get('/api/v1/csrf', () => {
        csrfCalls += 1;
        // What the browser does with the server's Set-Cookie.
        setCookie(CSRF_COOKIE, 'fresh-token');
        return HttpResponse.json({ csrf_token: 'fresh-token' });
      }),
      http.put('/api/v1/echo', echoHeaders),
      http.delete('/api/v1/echo', echoHeaders),
    );
    const client = createApiClient();

    const [first, second] = await Promise.all([
      client.put('/api/v1/echo', { n: 1 }, echoSchema),
      client.delete('/api/v1/echo', echoSchema),
    ]);
    const third = await client.put('/api/v1/echo', { n: 2 }, echoSchema);

    expect([first.csrf, second.csrf, third.csrf]).toEqual(['fresh-token', 'fresh-token', 'fresh-token']);
    expect(csrfCalls).toBe(1);
  });
});

describe('api client request merging', () => {
  it('merges identical concurrent requests into one', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/products/', async () => {
        calls += 1;
        await delay(20);
        return HttpResponse.json({ calls });
      }),
    );
    const client = createApiClient();
    const schema = z.object({ calls: z.number() });

    const answers = await Promise.all([
      client.get('/api/v1/products/', schema, { params: { is_active_only: true } }),
      client.get('/api/v1/products/', schema, { params: { is_active_only: true } }),
      client.get('/api/v1/products/', schema, { params: { is_active_only: true } }),
    ]);

    expect(calls).toBe(1);
    expect(answers).toEqual([{ calls: 1 }, { calls: 1 }, { calls: 1 }]);
  });

  it('merges identical bodies whatever their key order', async () => {
    let calls = 0;
    setCookie(CSRF_COOKIE, 'csrf');
    server.use(
      http.post('/api/v1/orders/calculate-vat', async () => {
        calls += 1;
        await delay(20);
        return HttpResponse.json({ ok: true });
      }),
    );
    const client = createApiClient();
    const schema = z.object({ ok: z.boolean() });

    await Promise.all([
      client.post('/api/v1/orders/calculate-vat', { amount: 100, country: 'LT' }, schema),
      client.post('/api/v1/orders/calculate-vat', { country: 'LT', amount: 100 }, schema),
    ]);

    expect(calls).toBe(1);
  });

  it('sends different requests separately', async () => {
    const seen: string[] = [];
    setCookie(CSRF_COOKIE, 'csrf');
    server.use(
      http.get('/api/v1/items', async ({ request }) => {
        seen.push(`GET ${new URL(request.url).search}`);
        await delay(20);
        return HttpResponse.json({});
      }),
      http.post('/api/v1/items', async ({ request }) => {
        seen.push(`POST ${await request.text()}`);
        await delay(20);
        return HttpResponse.json({});
      }),
    );
    const client = createApiClient();
    const schema = z.object({});

    await Promise.all([
      client.get('/api/v1/items', schema, { params: { page: 1 } }),
      client.get('/api/v1/items', schema, { params: { page: 2 } }),
      client.post('/api/v1/items', { name: 'a' }, schema),
      client.post('/api/v1/items', { name: 'b' }, schema),
    ]);

    expect(seen.sort()).toEqual(['GET ?page=1', 'GET ?page=2', 'POST {"name":"a"}', 'POST {"name":"b"}']);
  });

  it('sends the same request again once the first has finished', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/dashboard/', () => {
        calls += 1;
        return HttpResponse.json({});
      }),
    );
    const client = createApiClient();

    await client.get('/api/v1/dashboard/', z.object({}));
    await client.get('/api/v1/dashboard/', z.object({}));

    expect(calls).toBe(2);
  });
});

describe('api client errors', () => {
  it('has the spec time-out of 10 seconds and sends cookies', () => {
    const { http: instance, timeoutMs } = createApiClient();
    expect(timeoutMs).toBe(10_000);
    expect(instance.defaults.withCredentials).toBe(true);
    expect(instance.defaults.baseURL).toBe('');
  });

  it('turns a time-out into an ApiError with detail timeout', async () => {
    server.use(
      http.get('/api/v1/slow', async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );

    const error = await createApiClient({ timeoutMs: 50 })
      .get('/api/v1/slow', z.object({}))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, detail: 'timeout' });
    expect((error as ApiError).message).toBe(i18n.t('clientErrors.timeout'));
  });

  it('reports a caller cancelling as canceled, not as a time-out', async () => {
    server.use(
      http.get('/api/v1/slow', async () => {
        await delay(500);
        return HttpResponse.json({});
      }),
    );
    const controller = new AbortController();

    const pending = createApiClient()
      .get('/api/v1/slow', z.object({}), { signal: controller.signal })
      .catch((caught: unknown) => caught);
    controller.abort();

    expect(await pending).toMatchObject({ status: 0, detail: 'canceled' });
  });

  it('turns a network failure into an ApiError with detail network_error', async () => {
    server.use(http.get('/api/v1/down', () => HttpResponse.error()));

    const error = await createApiClient()
      .get('/api/v1/down', z.object({}))
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 0, detail: 'network_error' });
  });

  it('keeps the server error body: detail, message and field errors', async () => {
    setCookie(CSRF_COOKIE, 'csrf');
    server.use(
      http.post('/api/v1/auth/register', () =>
        HttpResponse.json(
          {
            detail: 'validation_error',
            message: 'Kai kurie laukai neteisingi.',
            errors: [
              { field: 'email', code: 'invalid_email', message: 'Įveskite teisingą el. pašto adresą' },
              { field: 'password', code: 'too_short', message: 'Turi būti bent 8 simbolių' },
            ],
          },
          { status: 422 },
        ),
      ),
    );

    const error = await createApiClient()
      .post('/api/v1/auth/register', {}, z.object({}))
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      detail: 'validation_error',
      message: 'Kai kurie laukai neteisingi.',
      fieldErrors: {
        email: 'Įveskite teisingą el. pašto adresą',
        password: 'Turi būti bent 8 simbolių',
      },
    });
  });

  it('names an error without our body after its status, in the current language', async () => {
    server.use(
      http.get('/api/v1/broken', () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })),
    );
    await i18n.changeLanguage('lt');

    const error = await createApiClient()
      .get('/api/v1/broken', z.object({}))
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({
      status: 502,
      detail: 'server_error',
      message: 'Serverio klaida. Bandykite vėliau',
    });
  });

  it('rejects an answer that does not match its schema', async () => {
    server.use(http.get('/api/v1/health', () => HttpResponse.json({ status: 42 })));

    const error = await createApiClient()
      .get('/api/v1/health', z.object({ status: z.string() }))
      .catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 200, detail: 'invalid_response' });
  });
});
