import type { PlanChangeQuote } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { ORDER_ID } from '../../payments/payment-fixtures.ts';
import { makeUser, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { makeService, overviewHandler, SERVICE_ID } from '../../test/service-fixtures.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import {
  configuration,
  makePlanChange,
  makeQuote,
  MINI,
  OPTIMIZED,
  PLAN_CHANGE_ID,
  planChangeOrder,
} from './plan-change-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';

const euro = (minor: number) => formatMoney(minor, 'en-US');
const changePath = `/dashboard/plans/change?service=${SERVICE_ID}`;

/** POST /plan-changes/quote answering with `answer(body)`; the bodies asked are collected. */
function quoteHandler(answer: (body: Record<string, unknown>) => Response | PlanChangeQuote) {
  const asked: Record<string, unknown>[] = [];
  server.use(
    http.post('/api/v1/plan-changes/quote', async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      asked.push(body);
      const result = answer(body);
      return result instanceof Response ? result : HttpResponse.json(result);
    }),
  );
  return asked;
}

function created() {
  const bodies: Record<string, unknown>[] = [];
  return {
    bodies,
    handler: (answer: () => Response) =>
      http.post('/api/v1/plan-changes/', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return answer();
      }),
  };
}

/** POST /plan-changes/ creates the change `quote` prices; its payment page then finds it and its order. */
function createdToPay(quote: PlanChangeQuote) {
  const post = created();
  server.use(
    post.handler(() => HttpResponse.json(makePlanChange({}, quote), { status: 201 })),
    http.get(`/api/v1/plan-changes/${PLAN_CHANGE_ID}`, () => HttpResponse.json(makePlanChange({}, quote))),
    http.get(`/api/v1/orders/${ORDER_ID}`, () =>
      HttpResponse.json(planChangeOrder(makePlanChange({}, quote))),
    ),
  );
  return post;
}

beforeEach(() => signIn({ handlers: [...catalogueHandlers(), overviewHandler([makeService()])] }));

describe('plan change (/dashboard/plans/change)', () => {
  it('shows the current plan and refuses the same configuration without asking for a quote', async () => {
    const asked = quoteHandler(() => makeQuote());
    renderApp(changePath);

    expect((await screen.findByTestId('plan-change-current')).textContent).toBe('MINI · 50 GB · 5 users');
    expect((await screen.findByTestId('plan-change-same')).textContent).toBe(
      'Please select different resources or a different plan',
    );
    expect(screen.getByTestId('plan-change-period').textContent).toContain('12 months');
    expect(screen.getByTestId<HTMLInputElement>('plan-change-product-mini').checked).toBe(true);
    expect(screen.getByTestId<HTMLButtonElement>('plan-change-submit').disabled).toBe(true);
    expect(asked).toEqual([]);
  });

  it('quotes an upgrade live and goes to its payment page', async () => {
    const quote = makeQuote(MINI, OPTIMIZED);
    const asked = quoteHandler(() => quote);
    const post = createdToPay(quote);
    const { router } = renderApp(changePath);

    await userEvent.click(await screen.findByTestId('plan-change-product-optimized'));
    expect(screen.getByTestId<HTMLInputElement>('plan-disk').value).toBe('500');
    expect(screen.getByTestId<HTMLInputElement>('plan-users').value).toBe('10');

    expect((await screen.findByTestId('plan-change-total')).textContent).toBe(euro(quote.charge.total));
    expect(screen.getByTestId('plan-change-days').textContent).toBe('200 of 365 days');
    expect(screen.getByTestId('plan-change-current-value').textContent).toBe(euro(quote.current_plan_value));
    expect(screen.getByTestId('plan-change-new-value').textContent).toBe(euro(quote.new_plan_value));
    expect(screen.getByTestId('plan-change-difference').textContent).toBe(euro(quote.prorated_difference));
    expect(screen.getByTestId('plan-change-vat').textContent).toBe(euro(quote.charge.vat_amount));
    expect(asked).toEqual([
      { service_id: SERVICE_ID, product_id: 'optimized', disk_space: 500, users_count: 10 },
    ]);
    expect(screen.queryByTestId('plan-change-confirm')).toBeNull();

    const submit = screen.getByTestId('plan-change-submit');
    expect(submit.textContent).toBe('Continue to payment');
    await userEvent.click(submit);

    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/dashboard/payments/plan-change/${PLAN_CHANGE_ID}/payment`,
      ),
    );
    expect(post.bodies).toEqual([
      {
        service_id: SERVICE_ID,
        product_id: 'optimized',
        disk_space: 500,
        users_count: 10,
        confirm_downgrade: false,
        wait_for_room: false,
      },
    ]);
  });

  it('shows the credit a downgrade gives, needs the confirmation, then applies it and says so', async () => {
    server.use(
      overviewHandler([
        makeService({ plan: 'OPTIMIZED', product_id: 'optimized', disk_space: 500, users_total: 10 }),
      ]),
    );
    const quote = makeQuote(OPTIMIZED, MINI, 0);
    quoteHandler(() => quote);
    const post = created();
    let creditBalance = 0;
    server.use(
      post.handler(() => {
        creditBalance = quote.credit;
        return HttpResponse.json(makePlanChange({}, quote), { status: 201 });
      }),
      http.get('/api/v1/account/credit', () =>
        HttpResponse.json({ balance: creditBalance, reserved: 0, currency: 'EUR', entries: [] }),
      ),
    );
    const { router } = renderApp(changePath);

    await userEvent.click(await screen.findByTestId('plan-change-product-mini'));
    expect((await screen.findByTestId('plan-change-credit')).textContent).toBe(euro(quote.credit));
    expect(screen.queryByTestId('plan-change-charge')).toBeNull();

    const submit = screen.getByTestId('plan-change-submit');
    expect(submit.textContent).toBe('Change plan');
    await userEvent.click(submit);
    expect((await screen.findByTestId('plan-change-confirm-error')).textContent).toBe(
      'Please confirm the downgrade to continue.',
    );
    expect(document.activeElement).toBe(screen.getByTestId('plan-change-confirm'));
    expect(post.bodies).toEqual([]);

    await userEvent.click(screen.getByLabelText(/no credit is given back/));
    expect(screen.queryByTestId('plan-change-confirm-error')).toBeNull();
    await userEvent.click(submit);

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/plans'));
    expect(post.bodies).toEqual([
      {
        service_id: SERVICE_ID,
        product_id: 'mini',
        disk_space: 50,
        users_count: 5,
        confirm_downgrade: true,
        wait_for_room: false,
      },
    ]);
    expect((await screen.findByTestId('plans-changed')).textContent).toBe(
      `Your plan was changed from OPTIMIZED to MINI. ${euro(quote.credit)} was added to your account credit.`,
    );
    expect((await screen.findByTestId('plans-credit-balance')).textContent).toBe(euro(quote.credit));
  });

  it('shows why a smaller plan does not fit next to its field', async () => {
    quoteHandler(() =>
      HttpResponse.json(
        {
          detail: 'plan_does_not_fit',
          message: 'The new plan is too small for what the service uses now.',
          errors: [
            { field: 'users_count', code: 'below_users_in_use', message: 'At least 7 users are in use' },
          ],
        },
        { status: 422 },
      ),
    );
    server.use(overviewHandler([makeService({ users_total: 8 })]));
    renderApp(changePath);

    const users = await screen.findByTestId('plan-users');
    await userEvent.clear(users);
    await userEvent.type(users, '6');

    expect((await screen.findByTestId('plan-change-users-error')).textContent).toBe(
      'At least 7 users are in use',
    );
    expect(users.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByTestId('plan-change-quote-error')).toBeNull();
    expect(screen.getByTestId<HTMLButtonElement>('plan-change-submit').disabled).toBe(true);
  });

  it('checks the values a plan starts from by its rules: at once, and again when that plan is chosen again', async () => {
    // Bought under other rules: 55 GB is no step of MINI's disk.
    server.use(overviewHandler([makeService({ disk_space: 55 })]));
    const asked = quoteHandler(() => makeQuote());
    renderApp(changePath);
    expect((await screen.findByTestId('plan-change-disk-error')).textContent).toBeTruthy();

    await userEvent.click(screen.getByTestId('plan-change-product-optimized'));
    await waitFor(() => expect(screen.queryByTestId('plan-change-disk-error')).toBeNull());
    await userEvent.click(screen.getByTestId('plan-change-product-mini'));
    expect((await screen.findByTestId('plan-change-disk-error')).textContent).toBeTruthy();
    expect(asked.every((body) => body.product_id === 'optimized')).toBe(true);
  });

  it('checks the selection in the browser first (disk steps), without asking the server', async () => {
    const asked = quoteHandler(() => makeQuote());
    renderApp(changePath);
    const disk = await screen.findByTestId('plan-disk');
    await userEvent.clear(disk);
    await userEvent.type(disk, '55');
    expect((await screen.findByTestId('plan-change-disk-error')).textContent).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('names the plan with its new resources when only the resources changed', async () => {
    const bigMini = configuration('mini', 100, 5);
    server.use(overviewHandler([makeService({ disk_space: 100 })]));
    const quote = makeQuote(bigMini, MINI, 0);
    quoteHandler(() => quote);
    const post = created();
    server.use(
      post.handler(() => HttpResponse.json(makePlanChange({}, quote), { status: 201 })),
      http.get('/api/v1/account/credit', () =>
        HttpResponse.json({ balance: quote.credit, reserved: 0, currency: 'EUR', entries: [] }),
      ),
    );
    const { router } = renderApp(changePath);
    const disk = await screen.findByTestId('plan-disk');
    await userEvent.clear(disk);
    await userEvent.type(disk, '50');
    await userEvent.click(await screen.findByLabelText(/no credit is given back/));
    await userEvent.click(screen.getByTestId('plan-change-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/plans'));
    // Not "changed to MINI": MINI it was and MINI it stays.
    expect((await screen.findByTestId('plans-changed')).textContent).toBe(
      `Your MINI plan now has 50 GB and 5 users. ${euro(quote.credit)} was added to your account credit.`,
    );
  });

  it('says why there is no price when the target is invalid, instead of an empty card', async () => {
    const asked = quoteHandler(() => makeQuote());
    renderApp(changePath);
    const disk = await screen.findByTestId('plan-disk');
    await userEvent.clear(disk);
    await userEvent.type(disk, '55');
    const why = await screen.findByTestId('plan-change-invalid');
    expect(why.textContent).toContain('The price is shown once the new plan’s resources are valid.');
    expect(why.textContent).toContain(
      `Disk space: ${screen.getByTestId('plan-change-disk-error').textContent ?? ''}`,
    );
    expect(screen.getByTestId<HTMLButtonElement>('plan-change-submit').disabled).toBe(true);
    expect(asked).toEqual([]);
  });

  it('says what an empty disk or users field expects, not only that it is required', async () => {
    renderApp(changePath);
    const disk = await screen.findByTestId('plan-disk');
    await userEvent.clear(disk);
    const error = (await screen.findByTestId('plan-change-disk-error')).textContent ?? '';
    expect(error).toMatch(/^Enter the disk space: from 50 GB to .+, in steps of .+\.$/);
    expect(error).not.toMatch(/required|whole number/i);
    const users = screen.getByTestId('plan-users');
    await userEvent.clear(users);
    expect((await screen.findByTestId('plan-change-users-error')).textContent).toMatch(
      /^Enter the number of users: from 5 to \d+\.$/,
    );
  });

  it('says "Failed to change plan" when the change fails without a reason, and the server’s reason when it has one', async () => {
    quoteHandler(() => makeQuote());
    const post = created();
    let calls = 0;
    server.use(
      post.handler(() => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 })
          : HttpResponse.json(
              { detail: 'service_not_changeable', message: 'This service cannot change plan now.' },
              { status: 409 },
            );
      }),
    );
    renderApp(changePath);
    await userEvent.click(await screen.findByTestId('plan-change-product-optimized'));
    await screen.findByTestId('plan-change-total');

    await userEvent.click(screen.getByTestId('plan-change-submit'));
    expect((await screen.findByTestId('plan-change-error')).textContent).toBe(
      'Failed to change plan. Please try again.',
    );
    await userEvent.click(screen.getByTestId('plan-change-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('plan-change-error').textContent).toBe(
        'This service cannot change plan now.',
      ),
    );
  });

  it('sends an expired service to be extended', async () => {
    server.use(
      overviewHandler([makeService({ status: 'expired', valid_until: '2026-01-01T00:00:00.000Z' })]),
    );
    renderApp(changePath);
    expect((await screen.findByTestId('plan-change-expired')).textContent).toContain(
      'This service has expired or is quarantined. Please extend your service to regain access.',
    );
    expect(screen.getByTestId('plan-change-extend').getAttribute('href')).toBe(
      `/dashboard/payments/extend/${SERVICE_ID}/payment`,
    );
  });

  it('turns the server’s service_expired refusal into the same notice', async () => {
    quoteHandler(() =>
      HttpResponse.json(
        { detail: 'service_expired', message: 'This service has expired or is quarantined.' },
        { status: 409 },
      ),
    );
    renderApp(changePath);
    await userEvent.click(await screen.findByTestId('plan-change-product-optimized'));
    expect(await screen.findByTestId('plan-change-extend')).toBeTruthy();
  });

  it('says "Please select a plan" when the service’s plan is no longer sold', async () => {
    server.use(overviewHandler([makeService({ product_id: 'legacy', plan: 'Legacy' })]));
    renderApp(changePath);
    expect((await screen.findByTestId('plan-change-select-plan')).textContent).toBe('Please select a plan');
  });

  it('says when the service is missing or unknown, and offers a choice among several', async () => {
    server.use(overviewHandler([]));
    const first = renderApp('/dashboard/plans/change');
    expect((await screen.findByTestId('plan-change-problem')).textContent).toBe('Service ID is missing');
    first.unmount();

    server.use(overviewHandler([makeService()]));
    const second = renderApp('/dashboard/plans/change?service=nope');
    expect((await screen.findByTestId('plan-change-problem')).textContent).toBe('Service not found');
    second.unmount();

    const other = makeService({ id: 'svc-2', name: 'Archive', plan: 'OPTIMIZED', product_id: 'optimized' });
    server.use(overviewHandler([makeService(), other]));
    const { router } = renderApp('/dashboard/plans/change');
    await screen.findByTestId('plan-change-choose-service');
    const select = screen.getByTestId('plan-change-service');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose a service', 'Team drive (MINI)', 'Archive (OPTIMIZED)']);
    await userEvent.selectOptions(select, 'svc-2');
    await waitFor(() => expect(router.state.location.search).toBe('?service=svc-2'));
    expect((await screen.findByTestId('plan-change-current')).textContent).toBe(
      'OPTIMIZED · 50 GB · 5 users',
    );
  });

  it('picks the only service when none is named, and speaks Lithuanian', async () => {
    // The signed-in user's language is the page's.
    server.use(userHandler(makeUser({ language: 'lt' })));
    renderApp('/dashboard/plans/change');
    expect((await screen.findByTestId('plan-change-current')).textContent).toBe(
      'MINI · 50 GB · 5 naudotojai',
    );
    expect(screen.getByTestId('plan-change-same').textContent).toBe(
      'Pasirinkite kitus išteklius arba kitą planą',
    );
  });
});

describe('the order page of a plan change', () => {
  it('sends a plan change’s order to the plan-change payment page', async () => {
    const change = makePlanChange();
    server.use(
      http.get(`/api/v1/orders/${ORDER_ID}`, () => HttpResponse.json(planChangeOrder(change))),
      http.get(`/api/v1/plan-changes/${PLAN_CHANGE_ID}`, () => HttpResponse.json(change)),
    );
    const { router } = renderApp(`/dashboard/payments/new/${ORDER_ID}/payment`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/dashboard/payments/plan-change/${PLAN_CHANGE_ID}/payment`,
      ),
    );
  });
});

describe('plan change: room on the workspace’s node for a larger disk', () => {
  const short = (target = OPTIMIZED, largest: number | null = null): PlanChangeQuote => ({
    ...makeQuote(MINI, target),
    room: { fits_now: false, room_gb: 77, largest_disk_space: largest },
  });

  it('says the node has room for up to 77 GB more, offers no size of OPTIMIZED, and pays and waits when asked', async () => {
    const quote = short();
    quoteHandler(() => quote);
    const post = createdToPay(quote);
    const { router } = renderApp(changePath);
    await userEvent.click(await screen.findByTestId('plan-change-product-optimized'));

    expect((await screen.findByTestId('plan-change-room-title')).textContent).toBe(
      'The storage node of this workspace has room for up to 77 GB more now.',
    );
    expect(screen.getByTestId('plan-change-room-smaller').textContent).toBe(
      'No size of this plan fits on the node now.',
    );
    expect(screen.queryByTestId('plan-change-room-choose')).toBeNull();
    const submit = screen.getByTestId('plan-change-submit');
    expect(submit.textContent).toBe('Pay and wait for room');
    await userEvent.click(submit);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/dashboard/payments/plan-change/${PLAN_CHANGE_ID}/payment`,
      ),
    );
    expect(post.bodies[0]).toMatchObject({ disk_space: 500, wait_for_room: true });
  });

  it('offers the largest extra disk that fits, and with it the plain upgrade (no wait)', async () => {
    const target = configuration('mini', 130, 5);
    const fitting = configuration('mini', 120, 5);
    quoteHandler((body) =>
      body.disk_space === 120
        ? { ...makeQuote(MINI, fitting), room: { fits_now: true, room_gb: 77, largest_disk_space: 120 } }
        : short(target, 120),
    );
    renderApp(changePath);
    const disk = await screen.findByTestId<HTMLInputElement>('plan-disk');
    await userEvent.clear(disk);
    await userEvent.type(disk, '130');

    expect((await screen.findByTestId('plan-change-room-smaller')).textContent).toBe(
      'The largest size of this plan that fits now is 120 GB.',
    );
    await userEvent.click(screen.getByTestId('plan-change-room-choose'));
    expect(disk.value).toBe('120');
    await waitFor(() => expect(screen.queryByTestId('plan-change-room')).toBeNull());
    await waitFor(() =>
      expect(screen.getByTestId('plan-change-submit').textContent).toBe('Continue to payment'),
    );
  });

  it('says it in Lithuanian', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })));
    quoteHandler(() => short());
    renderApp(changePath);
    await userEvent.click(await screen.findByTestId('plan-change-product-optimized'));
    expect((await screen.findByTestId('plan-change-room-title')).textContent).toBe(
      'Šios darbo vietos saugojimo mazge dabar yra vietos dar ne daugiau kaip 77 GB.',
    );
    expect(screen.getByTestId('plan-change-submit').textContent).toBe('Sumokėti ir laukti vietos');
  }, 15_000);
});
