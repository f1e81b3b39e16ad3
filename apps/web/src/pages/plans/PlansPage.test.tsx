import { STORAGE_KEYS } from '@debesis/contract';
import { calculatePrice, formatMoney, vatFor, type PlanSelection } from '@debesis/pricing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { catalogueHandlers, productById, setCsrfCookie, type PriceCall } from './plans-fixtures.ts';

const mini = productById('mini');
const euro = (minor: number) => formatMoney(minor, 'en-US');
const text = (testId: string) => screen.getByTestId(testId).textContent;

/** What the breakdown must show for `selection`, priced by the same function the API charges with. */
function expectBreakdown(selection: PlanSelection, vat: ReturnType<typeof vatFor> | null) {
  const expected = calculatePrice(mini, selection, vat);
  expect(text('breakdown-total')).toBe(euro(expected.total));
  expect(text('breakdown-subtotal')).toBe(euro(expected.subtotal));
  expect(text('breakdown-discount')).toBe(
    euro(expected.period_discount === 0 ? 0 : -expected.period_discount),
  );
  expect(text('breakdown-base')).toBe(euro(expected.base_price));
  expect(text('breakdown-options')).toBe(euro(expected.option_costs));
  return expected;
}

async function openMini(path = '/pricing') {
  const user = userEvent.setup();
  const view = renderApp(path);
  await user.click(await screen.findByTestId('plan-choose-mini'));
  await screen.findByTestId('plan-configurator');
  return { user, ...view };
}

async function setNumber(user: ReturnType<typeof userEvent.setup>, testId: string, value: string) {
  const input = screen.getByTestId(testId);
  await user.clear(input);
  await user.type(input, value);
}

describe('plan picker', () => {
  let calls: PriceCall[];
  beforeEach(() => {
    calls = [];
    setCsrfCookie();
    server.use(...catalogueHandlers(calls));
  });

  it('lists the four plans with disk, users, address, support and monthly price', async () => {
    renderApp('/pricing');

    const card = await screen.findByTestId('plan-card-big-one');
    expect(within(card).getByText('2 TB')).toBeTruthy();
    expect(within(card).getByText('20')).toBeTruthy();
    expect(within(card).getByText('Dedicated IP')).toBeTruthy();
    expect(within(card).getByText('24/7')).toBeTruthy();
    const starter = screen.getByTestId('plan-card-starter');
    expect(within(starter).getByText('NAT IP')).toBeTruthy();
    expect(within(starter).getByText('Email')).toBeTruthy();
    expect(text('plan-price-starter')).toBe('€4.99');
    // A price says what it includes.
    expect(within(starter).getByText('per month, excl. VAT')).toBeTruthy();
    expect(screen.getAllByTestId(/^plan-card-/)).toHaveLength(4);
  });

  it('says what a NAT IP means beside a dedicated one: only through the VPN, or shares published directly', async () => {
    renderApp('/pricing');
    const nat = await screen.findByTestId('plan-address-nat');
    expect(nat.querySelector('dt')?.textContent).toBe('NAT IP (Starter)');
    expect(nat.querySelector('dd')?.textContent).toContain(
      'From outside it is reachable only through its VPN',
    );
    const dedicated = screen.getByTestId('plan-address-dedicated');
    expect(dedicated.querySelector('dt')?.textContent).toBe('Dedicated IP (MINI, OPTIMIZED and BIG ONE)');
    expect(dedicated.querySelector('dd')?.textContent).toContain('publish shares directly on that address');

    await changeLanguage('lt');
    await waitFor(() =>
      expect(screen.getByTestId('plan-address-nat').querySelector('dd')?.textContent).toContain(
        'Iš išorės ji pasiekiama tik per savo VPN',
      ),
    );
    expect(screen.getByTestId('plan-address-dedicated').querySelector('dt')?.textContent).toBe(
      'Dedikuotas IP (MINI, OPTIMIZED ir BIG ONE)',
    );
  });

  it('names the extra units’ prices and the largest disk in terabytes', async () => {
    await openMini();
    const diskHint = screen.getByTestId('plan-disk').getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(diskHint.split(' ')[0] ?? '')?.textContent).toContain(
      '50 GB included; add more in steps of 10 GB, up to 16 TB.',
    );
    expect(text('plan-disk-price').trim()).toMatch(/^Each extra 10 GB: €\d+\.\d{2} a month, excl\. VAT\.$/);
    expect(text('plan-users-price').trim()).toMatch(/^Each extra user: €\d+\.\d{2} a month, excl\. VAT\.$/);
  });

  it('updates the breakdown as disk, users and period change, equal to calculatePrice, and the server confirms', async () => {
    const { user } = await openMini();

    // No country known: priced without VAT, with the note.
    expectBreakdown({ disk_space: 50, users_count: 5, period_id: '1m' }, null);
    expect(text('breakdown-vat-rate')).toBe('excl. VAT');
    expect(screen.getByTestId('breakdown-excl-vat-note').textContent).toContain('VAT is added at checkout');
    await waitFor(() => expect(screen.getByTestId('breakdown-status').dataset.status).toBe('confirmed'));

    await setNumber(user, 'plan-disk', '70');
    expectBreakdown({ disk_space: 70, users_count: 5, period_id: '1m' }, null);
    expect(text('plan-bandwidth')).toContain('140 GB');

    await setNumber(user, 'plan-users', '7');
    expectBreakdown({ disk_space: 70, users_count: 7, period_id: '1m' }, null);

    await user.click(screen.getByTestId('plan-period-12m'));
    const expected = expectBreakdown({ disk_space: 70, users_count: 7, period_id: '12m' }, null);
    expect(expected.period_discount).toBeGreaterThan(0);

    await waitFor(() => expect(screen.getByTestId('breakdown-status').dataset.status).toBe('confirmed'));
    expect(calls.at(-1)).toEqual({
      body: {
        product_id: 'mini',
        disk_space: 70,
        users_count: 7,
        period_id: '12m',
        selected_options: [
          { type: 'disk_space', value: 20 },
          { type: 'users', value: 2 },
        ],
      },
      country: null,
      isBusiness: 'false',
    });
    // Debounced: the keystrokes in between were not each sent.
    expect(calls.length).toBeLessThan(6);
  });

  it('shows the server’s answer when it differs from the browser’s', async () => {
    server.use(
      http.post('/api/v1/orders/calculate-price', () => {
        const breakdown = calculatePrice(mini, { disk_space: 50, users_count: 5, period_id: '1m' }, null);
        return HttpResponse.json({ ...breakdown, total: breakdown.total + 1, vat_number_valid: null });
      }),
    );
    await openMini();

    const expected = calculatePrice(mini, { disk_space: 50, users_count: 5, period_id: '1m' }, null);
    await waitFor(() => expect(text('breakdown-total')).toBe(euro(expected.total + 1)));
    expect(screen.getByTestId('breakdown-status').dataset.status).toBe('confirmed');
  });

  it('adds the VAT of the detected country', async () => {
    server.use(
      http.get('/api/v1/auth/detect-country', () => HttpResponse.json({ country: 'LT', source: 'geoip' })),
    );
    await openMini('/auth/plans');

    await waitFor(() => expect(text('breakdown-vat-rate')).toBe('21%'));
    const vat = vatFor({ country: 'LT', isBusiness: false, vatNumberValid: false });
    const expected = expectBreakdown({ disk_space: 50, users_count: 5, period_id: '1m' }, vat);
    expect(text('breakdown-vat-amount')).toBe(euro(expected.vat_amount));
    await waitFor(() => expect(calls.at(-1)?.country).toBe('LT'));
  });

  it('uses a signed-in business customer’s country and VAT number and shows the reverse-charge note', async () => {
    storeSession();
    server.use(
      userHandler(
        makeUser({
          country: 'DE',
          account_type: 'business',
          company: {
            name: 'GmbH',
            code: 'HRB 1',
            vat_number: 'DE136695976',
            country: 'DE',
            address: { street: 'Str. 1', city: 'Berlin', state: '', postal_code: '10115' },
          },
        }),
      ),
    );
    await openMini('/auth/plans');

    expect(await screen.findByTestId('breakdown-reverse-charge')).toBeTruthy();
    expect(text('breakdown-vat-rate')).toBe('0%');
    await waitFor(() => expect(calls.at(-1)).toMatchObject({ country: 'DE', isBusiness: 'true' }));
    expect(calls.at(-1)?.body.vat_number).toBe('DE136695976');
  });

  it('signed in, shows the VAT and the country the server’s evidence decided, not the profile’s', async () => {
    storeSession();
    server.use(
      userHandler(makeUser({ country: 'US' })),
      http.post('/api/v1/orders/calculate-price', async ({ request }) => {
        const body = (await request.json()) as PlanSelection;
        const vat = vatFor({ country: 'LT', isBusiness: false, vatNumberValid: false });
        return HttpResponse.json({
          ...calculatePrice(mini, body, vat),
          vat_number_valid: null,
          vat_evidence: {
            country: 'LT',
            basis: 'contradicted',
            billing_country: null,
            ip_country: 'US',
            account_country: 'LT',
            relied_on: ['account_country', 'ip_address'],
          },
        });
      }),
    );
    await openMini('/auth/plans');

    await waitFor(() => expect(screen.getByTestId('breakdown-status').dataset.status).toBe('confirmed'));
    expect(text('breakdown-vat-rate')).toBe('21%');
    expect(text('breakdown-vat-country')).toContain('Lithuania');
  });

  it('checks the rules in the browser and does not ask the server about an invalid selection', async () => {
    const { user } = await openMini();
    await waitFor(() => expect(calls).toHaveLength(1));

    await setNumber(user, 'plan-disk', '55');
    expect(screen.getByText('Must be a multiple of 10')).toBeTruthy();
    await setNumber(user, 'plan-users', '3');
    expect(screen.getByText('Cannot be less than the plan includes (5)')).toBeTruthy();
    expect(screen.getByTestId('breakdown-invalid')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('plan-continue').disabled).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls).toHaveLength(1);
  });

  it('shows the server’s 422 messages under their fields', async () => {
    server.use(
      http.post('/api/v1/orders/calculate-price', () =>
        HttpResponse.json(
          {
            detail: 'validation_error',
            message: 'Validation failed',
            errors: [{ field: 'disk_space', code: 'above_max', message: 'Cannot be more than 16384' }],
          },
          { status: 422 },
        ),
      ),
    );
    await openMini();

    expect(await screen.findByText('Cannot be more than 16384')).toBeTruthy();
    expect(screen.getByTestId('breakdown-invalid')).toBeTruthy();
    expect(screen.getByTestId<HTMLButtonElement>('plan-continue').disabled).toBe(true);
  });

  it('puts the server’s field error on the field it names, and takes it away when the selection changes', async () => {
    server.use(
      http.post('/api/v1/orders/calculate-price', async ({ request }) => {
        const body = (await request.json()) as PlanSelection;
        return body.disk_space === 50
          ? HttpResponse.json(
              {
                detail: 'validation_error',
                message: 'Validation failed',
                errors: [{ field: 'users_count', code: 'above_max', message: 'Not this many users' }],
              },
              { status: 422 },
            )
          : HttpResponse.json({ ...calculatePrice(mini, body, null), vat_number_valid: null });
      }),
    );
    const { user } = await openMini();

    const users = screen.getByTestId('plan-users');
    await waitFor(() => expect(users.getAttribute('aria-invalid')).toBe('true'));
    const described = (users.getAttribute('aria-describedby') ?? '').split(' ');
    expect(described.map((id) => document.getElementById(id)?.textContent)).toContain('Not this many users');
    expect(screen.getByTestId('plan-disk').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByTestId('plan-error')).toBeNull();
    expect(document.activeElement).not.toBe(users);

    await setNumber(user, 'plan-disk', '60');
    await waitFor(() => expect(screen.queryByText('Not this many users')).toBeNull());
    expect(users.getAttribute('aria-invalid')).toBeNull();
  });

  it('keeps the selected plan with the spec’s fields and sends a guest to register', async () => {
    const { user, router } = await openMini();
    await setNumber(user, 'plan-disk', '60');
    await user.click(screen.getByTestId('plan-period-3m'));
    await waitFor(() => expect(screen.getByTestId('breakdown-status').dataset.status).toBe('confirmed'));

    await user.click(screen.getByTestId('plan-continue'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/register'));
    const stored = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.selectedPlan) ?? 'null') as Record<
      string,
      unknown
    >;
    const expected = calculatePrice(mini, { disk_space: 60, users_count: 5, period_id: '3m' }, null);
    expect(stored).toEqual({
      product_id: 'mini',
      disk_space: 60,
      bandwidth: 120,
      users_count: 5,
      period_id: '3m',
      selected_options: [
        { type: 'disk_space', value: 10 },
        { type: 'users', value: 0 },
      ],
      product_name: 'MINI — 60 GB Storage, 5 Users',
      period_name: '3 months',
      initial_calculation: {
        base_price: expected.base_price,
        option_costs: expected.option_costs,
        period_discount: expected.period_discount,
        subtotal: expected.subtotal,
        vat_rate: 0,
        vat_amount: 0,
        total: expected.total,
        currency: 'EUR',
        includes_vat: false,
      },
    });
  });

  it('takes a signed-in user from Continue to the payment page with the selection saved', async () => {
    storeSession();
    server.use(userHandler(makeUser({ country: 'LT' })));
    const { user, router } = await openMini('/auth/plans');
    await waitFor(() => expect(text('breakdown-vat-rate')).toBe('21%'));

    await user.click(screen.getByTestId('plan-continue'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/payments/new/payment'));
    expect(window.localStorage.getItem(STORAGE_KEYS.selectedPlan)).toContain('"product_id":"mini"');
    expect((await screen.findByTestId('payment-summary')).textContent).toContain('Disk space50 GB');
    // The payment page reads the catalogue itself (the plan cards' light read does not fill it).
    await waitFor(() => expect(screen.getByTestId('payment-fact-plan').textContent).toBe('MINI'));
  });

  it('formats prices and periods in Lithuanian', async () => {
    await changeLanguage('lt');
    const user = userEvent.setup();
    renderApp('/pricing');

    expect((await screen.findByTestId('plan-price-mini')).textContent).toBe(formatMoney(1499, 'lt-LT'));
    await user.click(screen.getByTestId('plan-choose-mini'));
    expect((await screen.findByTestId('plan-period-12m')).closest('label')?.textContent).toContain(
      '12 mėnesių',
    );
    expect(screen.getByTestId('plan-period-3m').closest('label')?.textContent).toContain('3 mėnesiai');
    expect(text('breakdown-total')).toBe(formatMoney(1499, 'lt-LT'));
  });
});
