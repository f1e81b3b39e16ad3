// VIES through the whole app, against a local stand-in for the EU Commission's REST API: what
// each answer does to VAT, the cache, and the rule for when VIES is down.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PriceBreakdownResponse } from '@debesis/contract';
import { createTestContext, injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { openTestDatabase, type TestDatabase } from '../../test/test-database.ts';
import { SEED_CATALOGUE } from '../products/catalogue-seed.ts';
import { createProductsQueries } from '../products/products.queries.ts';
import { createProductsService } from '../products/products.service.ts';
import { createViesClient, viesRequester } from './vies.client.ts';
import { createViesQueries } from './vies.queries.ts';
import {
  createViesService,
  VIES_FALLBACK_FOR_MS,
  VIES_INVALID_FOR_MS,
  VIES_VALID_FOR_MS,
} from './vies.service.ts';

const HOUR = 60 * 60 * 1000;
// Long enough for the first fetch of a cold process on a busy machine.
const TIMEOUT_MS = 1000;

type Behaviour =
  | 'valid'
  | 'invalid'
  | 'http_500'
  | 'html_502'
  | 'timeout'
  | 'ms_unavailable'
  | 'user_error'
  | 'max_concurrent'
  | 'invalid_input';

/** Stands in for VIES's `POST /check-vat-number`, answering per number as a test tells it to. */
class FakeVies {
  readonly behaviour = new Map<string, Behaviour>();
  readonly requests: Array<{
    path: string;
    countryCode: string;
    vatNumber: string;
    requesterMemberStateCode?: string;
    requesterNumber?: string;
  }> = [];
  private server: Server | null = null;
  url = '';

  count(vatNumber: string): number {
    return this.requests.filter((request) => `${request.countryCode}${request.vatNumber}` === vatNumber)
      .length;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      request.on('end', () => {
        const body = JSON.parse(raw) as Omit<FakeVies['requests'][number], 'path'>;
        this.requests.push({ path: request.url ?? '', ...body });
        const json = (status: number, value: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(value));
        };
        const failure = (error: string) => json(200, { actionSucceed: false, errorWrappers: [{ error }] });
        const number = `${body.countryCode}${body.vatNumber}`;
        const behaviour = this.behaviour.get(number) ?? 'valid';
        switch (behaviour) {
          case 'valid':
          case 'invalid':
            return json(200, {
              countryCode: body.countryCode,
              vatNumber: body.vatNumber,
              requestDate: '2026-11-21T10:00:00.000Z',
              valid: behaviour === 'valid',
              // VIES gives a consultation number only to a named requester, for a valid number.
              requestIdentifier:
                body.requesterNumber && behaviour === 'valid'
                  ? `WAPIAAAAW${body.countryCode}${body.vatNumber}`
                  : '',
              name: behaviour === 'valid' ? 'EXAMPLE GMBH' : '---',
              address: behaviour === 'valid' ? 'Musterstr. 1\n10115 Berlin' : '---',
            });
          case 'http_500':
            return json(500, { message: 'Internal Server Error' });
          case 'html_502':
            response.writeHead(502, { 'content-type': 'text/html' });
            return response.end('<html><body>Bad gateway</body></html>');
          case 'timeout':
            return setTimeout(() => json(200, { valid: true }), TIMEOUT_MS * 3).unref();
          case 'ms_unavailable':
            return failure('MS_UNAVAILABLE');
          case 'max_concurrent':
            return failure('MS_MAX_CONCURRENT_REQ');
          case 'invalid_input':
            return failure('INVALID_INPUT');
          case 'user_error':
            return json(200, { isValid: false, userError: 'SERVICE_UNAVAILABLE', name: '---' });
        }
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/taxation_customs/vies/rest-api`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

interface VatAnswer {
  vat_rate: number;
  reverse_charge: boolean;
  reason: string;
  vat_number_valid: boolean | null;
  vat_number_check: string | null;
  vies_consultation_number?: string | null;
}

describe('VAT numbers checked against VIES', () => {
  const vies = new FakeVies();
  let ctx: TestContext;

  beforeAll(async () => {
    await vies.start();
    ctx = await createTestContext({
      clock: true,
      env: { VIES_URL: vies.url, VIES_TIMEOUT_MS: String(TIMEOUT_MS), VIES_RETRY_AFTER_MS: '0' },
    });
    await createProductsService({ queries: createProductsQueries(ctx.database.db) }).seedIfEmpty(
      SEED_CATALOGUE,
    );
  });
  afterAll(async () => {
    await ctx.close();
    await vies.stop();
  });

  /** The calculate-vat answer for a business in `country` with `vatNumber`. */
  const vatFor = async (country: string, vatNumber: string, isCompany = true) => {
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/calculate-vat',
      payload: { amount: 10_000, country, is_company: isCompany, vat_number: vatNumber },
    });
    expect(response.statusCode).toBe(200);
    return response.json<VatAnswer>();
  };

  it('reverse-charges a business whose number VIES knows, asking with the prefix apart', async () => {
    const price = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/calculate-price?country=DE&is_business=true',
      payload: {
        product_id: 'mini',
        disk_space: 100,
        users_count: 7,
        period_id: '12m',
        vat_number: 'DE 136 695 976',
      },
    });
    expect(price.json<PriceBreakdownResponse>()).toMatchObject({
      vat_rate: 0,
      vat_amount: 0,
      reverse_charge: true,
      vat_number_valid: true,
      vat_number_check: 'vies_valid',
      // The proof of the check, for the order's frozen breakdown.
      vies_consultation_number: 'WAPIAAAAWDE136695976',
      legal_note_key: 'reverse_charge',
    });
    // Asked with the seller (SELLER_VAT_NUMBER, LT100000000017 here) as the requester.
    expect(vies.requests).toContainEqual({
      path: '/taxation_customs/vies/rest-api/check-vat-number',
      countryCode: 'DE',
      vatNumber: '136695976',
      requesterMemberStateCode: 'LT',
      requesterNumber: '100000000017',
    });
    // Greece: the country is GR, its VAT prefix (what VIES wants) EL.
    expect(await vatFor('GR', 'EL094259216')).toMatchObject({
      vat_rate: 0,
      vat_number_check: 'vies_valid',
      vies_consultation_number: 'WAPIAAAAWEL094259216',
    });
    expect(vies.count('EL094259216')).toBe(1);
  });

  it('charges the country’s VAT when VIES does not know a number whose checksum holds', async () => {
    vies.behaviour.set('FR40303265045', 'invalid');
    expect(await vatFor('FR', 'FR40303265045')).toMatchObject({
      vat_rate: 20,
      reverse_charge: false,
      reason: 'eu_consumer',
      vat_number_valid: false,
      vat_number_check: 'vies_invalid',
      vies_consultation_number: null,
    });
    // INVALID_INPUT is VIES refusing the number itself, not VIES being down.
    vies.behaviour.set('PT501964843', 'invalid_input');
    expect(await vatFor('PT', 'PT501964843')).toMatchObject({
      vat_rate: 23,
      vat_number_check: 'vies_invalid',
    });
  });

  it('asks VIES once per number: later quotes and concurrent ones use that answer', async () => {
    await vatFor('AT', 'ATU13585627');
    expect(vies.count('ATU13585627')).toBe(1);
    expect(await vatFor('AT', 'ATU13585627')).toMatchObject({ vat_rate: 0, vat_number_check: 'vies_valid' });
    expect(vies.count('ATU13585627')).toBe(1);

    const together = await Promise.all(Array.from({ length: 5 }, () => vatFor('BE', 'BE0403019261')));
    expect(together.every((answer) => answer.reverse_charge)).toBe(true);
    expect(vies.count('BE0403019261')).toBe(1);
  });

  it('keeps a valid answer for a day and an invalid one for an hour', async () => {
    await vatFor('BG', 'BG175074752');
    vies.behaviour.set('CZ25123891', 'invalid');
    await vatFor('CZ', 'CZ25123891');
    ctx.advance(VIES_INVALID_FOR_MS + 1000);
    vies.behaviour.set('CZ25123891', 'valid');
    expect(await vatFor('CZ', 'CZ25123891')).toMatchObject({ vat_rate: 0, vat_number_check: 'vies_valid' });
    expect(vies.count('CZ25123891')).toBe(2);
    await vatFor('BG', 'BG175074752');
    expect(vies.count('BG175074752')).toBe(1);
    ctx.advance(VIES_VALID_FOR_MS);
    await vatFor('BG', 'BG175074752');
    expect(vies.count('BG175074752')).toBe(2);
  });

  it.each([
    ['HTTP 500', 'http_500', 'DK13585628', 'DK', 25],
    ['an HTML error page', 'html_502', 'EE100594102', 'EE', 24],
    ['a timeout', 'timeout', 'FI20774740', 'FI', 25.5],
    ['MS_UNAVAILABLE', 'ms_unavailable', 'HR33392005961', 'HR', 25],
    ['MS_MAX_CONCURRENT_REQ', 'max_concurrent', 'HU12892312', 'HU', 27],
    ['userError SERVICE_UNAVAILABLE', 'user_error', 'IT00743110157', 'IT', 22],
  ] as const)(
    'VIES down (%s) with no answer cached: VAT charged, number flagged unverified',
    async (_label, behaviour, number, country, rate) => {
      vies.behaviour.set(number, behaviour);
      expect(await vatFor(country, number)).toMatchObject({
        vat_rate: rate,
        reverse_charge: false,
        vat_number_valid: false,
        vat_number_check: 'vies_unavailable',
      });
      expect(vies.count(number)).toBe(1);
      // Nothing was cached: once VIES is back, it is asked again.
      vies.behaviour.set(number, 'valid');
      expect(await vatFor(country, number)).toMatchObject({ vat_rate: 0, vat_number_check: 'vies_valid' });
    },
  );

  it.each([
    ['HTTP 500', 'http_500', 'LU15027442', 'LU'],
    ['a timeout', 'timeout', 'LV40003521600', 'LV'],
    ['MS_UNAVAILABLE', 'ms_unavailable', 'MT11679112', 'MT'],
  ] as const)(
    'VIES down (%s): the last answer stands in for up to 30 days',
    async (_label, behaviour, number, country) => {
      await vatFor(country, number);
      ctx.advance(VIES_VALID_FOR_MS + HOUR);
      vies.behaviour.set(number, behaviour);
      expect(await vatFor(country, number)).toMatchObject({
        vat_rate: 0,
        reverse_charge: true,
        vat_number_check: 'vies_valid',
      });
      expect(vies.count(number)).toBe(2);
      ctx.advance(VIES_FALLBACK_FOR_MS);
      expect(await vatFor(country, number)).toMatchObject({
        reverse_charge: false,
        vat_number_check: 'vies_unavailable',
      });
    },
  );

  it('asks VIES only when its answer can change the VAT', async () => {
    const before = vies.requests.length;
    // A consumer pays VAT whatever the number; so does a Lithuanian business; outside the EU none.
    expect(await vatFor('NL', 'NL004495445B01', false)).toMatchObject({
      vat_rate: 21,
      vat_number_valid: true,
      vat_number_check: 'format',
    });
    expect(await vatFor('LT', 'LT119511515')).toMatchObject({ vat_rate: 21, vat_number_check: 'format' });
    // A wrong check digit, or a number of another country, fails before VIES.
    expect(await vatFor('PL', 'PL8567346216')).toMatchObject({
      vat_rate: 23,
      vat_number_valid: false,
      vat_number_check: 'format',
    });
    expect(await vatFor('SE', 'PL8567346215')).toMatchObject({ vat_rate: 25, vat_number_check: 'format' });
    expect(vies.requests.length).toBe(before);
    // Without a number there is nothing to check.
    const response = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/orders/calculate-vat',
      payload: { amount: 100, country: 'SI', is_company: true },
    });
    expect(response.json()).toMatchObject({ vat_rate: 22, vat_number_valid: null, vat_number_check: null });
  });
});

describe('the VIES service on its own', () => {
  const vies = new FakeVies();
  let database: TestDatabase;
  beforeAll(async () => {
    await vies.start();
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.destroy();
    await vies.stop();
  });

  it('leaves a member state alone for a while after VIES failed for it', async () => {
    let at = Date.parse('2026-11-21T10:00:00Z');
    const warnings: object[] = [];
    const service = createViesService({
      client: createViesClient({ baseUrl: vies.url, timeoutMs: TIMEOUT_MS }),
      queries: createViesQueries(database.db),
      retryAfterMs: 30_000,
      now: () => new Date(at),
      log: { warn: (details) => warnings.push(details) },
    });
    vies.behaviour.set('SK2022749619', 'ms_unavailable');
    expect(await service.verify('SK', '2022749619')).toMatchObject({
      verdict: 'unavailable',
      unavailableReason: 'MS_UNAVAILABLE',
    });
    vies.behaviour.set('SK2022749619', 'valid');
    expect(await service.verify('SK', '2022749619')).toMatchObject({
      verdict: 'unavailable',
      unavailableReason: 'PAUSED',
    });
    expect(vies.count('SK2022749619')).toBe(1);
    expect(warnings).toEqual([{ vies: { country: 'SK', reason: 'MS_UNAVAILABLE' } }]);
    // Another member state is asked as usual.
    expect(await service.verify('SI', '50223054')).toMatchObject({ verdict: 'valid', cached: false });
    at += 30_001;
    expect(await service.verify('SK', '2022749619')).toMatchObject({ verdict: 'valid', cached: false });
    expect(await service.verify('SK', '2022749619')).toMatchObject({ verdict: 'valid', cached: true });
    expect(vies.count('SK2022749619')).toBe(2);
  });

  it('keeps what VIES said, with the trader’s name, address and consultation number, in the shared cache', async () => {
    const queries = createViesQueries(database.db);
    const service = createViesService({
      client: createViesClient({
        baseUrl: vies.url,
        timeoutMs: TIMEOUT_MS,
        requester: viesRequester('LT 100000000017'),
      }),
      queries,
      retryAfterMs: 0,
    });
    expect(await service.verify('ES', 'B58378431')).toMatchObject({
      verdict: 'valid',
      consultationNumber: 'WAPIAAAAWESB58378431',
    });
    expect(await queries.find('ESB58378431')).toMatchObject({
      valid: true,
      name: 'EXAMPLE GMBH',
      address: 'Musterstr. 1\n10115 Berlin',
      requestDate: '2026-11-21T10:00:00.000Z',
      requestIdentifier: 'WAPIAAAAWESB58378431',
    });
    // A second process (a new service on the same database) uses the answer without asking.
    const other = createViesService({
      client: createViesClient({ baseUrl: vies.url, timeoutMs: TIMEOUT_MS }),
      queries,
      retryAfterMs: 0,
    });
    expect(await other.verify('ES', 'B58378431')).toMatchObject({
      verdict: 'valid',
      cached: true,
      consultationNumber: 'WAPIAAAAWESB58378431',
    });
    expect(vies.count('ESB58378431')).toBe(1);
  });

  it('splits the seller’s VAT number into the requester VIES wants, or gives none', () => {
    expect(viesRequester('LT100000000017')).toEqual({ countryCode: 'LT', vatNumber: '100000000017' });
    expect(viesRequester('el 094.259.216')).toEqual({ countryCode: 'EL', vatNumber: '094259216' });
    expect(viesRequester('100000000017')).toBeNull();
  });

  it('counts a refused connection as VIES being down', async () => {
    const closed = new FakeVies();
    await closed.start();
    await closed.stop();
    const client = createViesClient({ baseUrl: closed.url, timeoutMs: TIMEOUT_MS });
    expect(await client.check('DE', '136695976')).toEqual({ outcome: 'unavailable', reason: 'NETWORK' });
  });
});
