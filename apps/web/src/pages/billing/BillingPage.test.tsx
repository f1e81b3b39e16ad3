import { CSRF_COOKIE } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { makeService, overviewHandler } from '../../test/service-fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import {
  invoicesHandler,
  makeBillingInfo,
  makeInvoice,
  makeSummary,
  SERVICE_A,
  summaryHandler,
} from './billing-fixtures.ts';

const THREE_TYPES = [
  makeInvoice({ id: 'a0000000-0000-4000-8000-000000000003', number: 'DEB-2026-000003', type: 'PLAN_CHANGE' }),
  makeInvoice({
    id: 'a0000000-0000-4000-8000-000000000002',
    number: 'DEB-2026-000002',
    type: 'RENEWAL',
    status: 'void',
  }),
  makeInvoice({ id: 'a0000000-0000-4000-8000-000000000001', number: 'DEB-2026-000001', total: 1234567 }),
];

beforeEach(() => {
  storeSession();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  server.use(userHandler(makeUser()), overviewHandler([makeService({ id: SERVICE_A, name: 'Team drive' })]));
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('billing page', () => {
  it('lists invoices with the spec’s type labels and colours, status, en-US amounts and the credit', async () => {
    server.use(summaryHandler(), invoicesHandler(THREE_TYPES));
    renderApp('/dashboard/billing');

    const purchase = await screen.findByTestId('invoice-row-DEB-2026-000001');
    const type = within(purchase).getByText('New Service');
    expect(type.className).toContain('badge--info');
    expect(
      within(screen.getByTestId('invoice-row-DEB-2026-000002')).getByText('Service Renewal').className,
    ).toContain('badge--success');
    expect(
      within(screen.getByTestId('invoice-row-DEB-2026-000003')).getByText('Plan Change').className,
    ).toContain('badge--warning');
    expect(within(purchase).getByText('Paid')).toBeTruthy();
    expect(within(screen.getByTestId('invoice-row-DEB-2026-000002')).getByText('Void')).toBeTruthy();
    expect(screen.getByTestId('invoice-total-DEB-2026-000001').textContent).toBe('€12,345.67');
    // The workspace by its name, not its id.
    expect(within(purchase).getByText('Team drive').className).toBe('invoice-service');
    expect(purchase.textContent).not.toContain(SERVICE_A);
    expect(within(screen.getByLabelText('Service')).getByRole('option', { name: 'Team drive' })).toBeTruthy();
    expect(purchase.textContent).toContain('Nov 21, 2026');
    expect(screen.getByTestId('invoices-page').textContent).toBe('Page 1 of 1 (3 total)');
    expect((await screen.findByTestId('billing-credit')).textContent).toBe(formatMoney(1250, 'en-US'));
  });

  it('pages with "Page X of Y (N total)" and filters by type, dates and service from page 1', async () => {
    const many = Array.from({ length: 12 }, (_, index) =>
      makeInvoice({
        id: `b0000000-0000-4000-8000-0000000000${String(index).padStart(2, '0')}`,
        number: `DEB-2026-0000${String(index + 10)}`,
        type: index === 0 ? 'RENEWAL' : 'PURCHASE',
      }),
    );
    const seen: URLSearchParams[] = [];
    server.use(summaryHandler(), invoicesHandler(many, seen));
    const user = userEvent.setup();
    renderApp('/dashboard/billing');

    expect((await screen.findByTestId('invoices-page')).textContent).toBe('Page 1 of 2 (12 total)');
    expect(screen.getAllByRole('row')).toHaveLength(11);
    await user.click(screen.getByTestId('invoices-next'));
    await waitFor(() =>
      expect(screen.getByTestId('invoices-page').textContent).toBe('Page 2 of 2 (12 total)'),
    );
    expect(seen.at(-1)?.get('page')).toBe('2');
    expect(seen.at(-1)?.has('per_page')).toBe(false);

    await user.selectOptions(screen.getByLabelText('Type'), 'RENEWAL');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await user.selectOptions(screen.getByLabelText('Service'), SERVICE_A);
    await user.click(screen.getByTestId('invoice-filters-apply'));
    await waitFor(() =>
      expect(screen.getByTestId('invoices-page').textContent).toBe('Page 1 of 1 (1 total)'),
    );
    const query = seen.at(-1);
    expect(query?.get('payment_type')).toBe('RENEWAL');
    expect(query?.get('start_date')).toBe('2026-11-01');
    expect(query?.get('end_date')).toBe('2026-11-30');
    expect(query?.get('service_id')).toBe(SERVICE_A);
    expect(query?.get('page')).toBe('1');

    await user.click(screen.getByTestId('invoice-filters-clear'));
    await waitFor(() =>
      expect(screen.getByTestId('invoices-page').textContent).toBe('Page 1 of 2 (12 total)'),
    );
  });

  it('lists a credit note with its label, linked to its invoice and back, and filters by document and status', async () => {
    const invoice = makeInvoice({
      credit_notes: [{ id: 'c0000000-0000-4000-8000-000000000001', number: 'CN-2026-000001', total: -500 }],
    });
    const note = makeInvoice({
      id: 'c0000000-0000-4000-8000-000000000001',
      number: 'CN-2026-000001',
      kind: 'credit_note',
      net: -413,
      vat_amount: -87,
      total: -500,
      credited_invoice: { id: invoice.id, number: invoice.number, total: invoice.total },
    });
    const seen: URLSearchParams[] = [];
    const previewed: string[] = [];
    server.use(
      summaryHandler(),
      invoicesHandler([note, invoice], seen),
      http.get('/api/v1/billing/invoices/:id/preview', ({ params }) => {
        previewed.push(String(params.id));
        return new HttpResponse('<!doctype html><p>document</p>', {
          headers: { 'content-type': 'text/html' },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/billing');

    const row = await screen.findByTestId('invoice-row-CN-2026-000001');
    expect(within(row).getByText('Credit note').className).toContain('badge');
    expect(within(row).getByText('Refunded')).toBeTruthy();
    expect(screen.getByTestId('invoice-total-CN-2026-000001').textContent).toBe('-€5.00');
    // The credit note opens its invoice; the invoice its credit note.
    await user.click(
      within(row).getByRole('button', {
        name: /Preview invoice DEB-2026-000001, which this credit note credits/,
      }),
    );
    expect(await screen.findByRole('dialog', { name: 'Invoice DEB-2026-000001' })).toBeTruthy();
    await user.click(screen.getByTestId('invoice-preview-close'));
    const invoiceRow = screen.getByTestId('invoice-row-DEB-2026-000001');
    expect(invoiceRow.textContent).toContain('Credit notes:');
    await user.click(within(invoiceRow).getByRole('button', { name: 'Preview credit note CN-2026-000001' }));
    expect(await screen.findByRole('dialog', { name: 'Credit note CN-2026-000001' })).toBeTruthy();
    await waitFor(() => expect(previewed).toEqual([invoice.id, note.id]));
    await user.click(screen.getByTestId('invoice-preview-close'));

    await user.selectOptions(screen.getByLabelText('Document'), 'credit_note');
    await user.selectOptions(screen.getByLabelText('Status'), 'paid');
    await user.click(screen.getByTestId('invoice-filters-apply'));
    await waitFor(() =>
      expect(screen.getByTestId('invoices-page').textContent).toBe('Page 1 of 1 (1 total)'),
    );
    expect(seen.at(-1)?.get('kind')).toBe('credit_note');
    expect(seen.at(-1)?.get('status')).toBe('paid');
    expect(screen.queryByTestId('invoice-row-DEB-2026-000001')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Status'), 'void');
    await user.click(screen.getByTestId('invoice-filters-apply'));
    expect((await screen.findByTestId('invoices-empty')).textContent).toBe(
      'No invoices match these filters.',
    );
  });

  it('says "No invoices match" only when filters narrowed the list to nothing', async () => {
    server.use(summaryHandler(), invoicesHandler([makeInvoice({ type: 'PURCHASE' })]));
    const user = userEvent.setup();
    renderApp('/dashboard/billing');
    await screen.findByTestId('invoices-page');
    await user.selectOptions(screen.getByLabelText('Type'), 'RENEWAL');
    await user.click(screen.getByTestId('invoice-filters-apply'));
    expect((await screen.findByTestId('invoices-empty')).textContent).toBe(
      'No invoices match these filters.',
    );
  });

  it('previews an invoice in an accessible dialog, and says when the preview fails', async () => {
    server.use(
      summaryHandler(),
      invoicesHandler(THREE_TYPES),
      http.get('/api/v1/billing/invoices/:id/preview', ({ params }) =>
        params.id === THREE_TYPES[0]?.id
          ? HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 })
          : new HttpResponse('<!doctype html><p>Invoice DEB-2026-000001 €12,345.67</p>', {
              headers: { 'content-type': 'text/html' },
            }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/billing');

    const previewButton = await screen.findByRole('button', { name: 'Preview invoice DEB-2026-000001' });
    await user.click(previewButton);
    const dialog = await screen.findByRole('dialog', { name: 'Invoice DEB-2026-000001' });
    const frame = await within(dialog).findByTitle('Invoice DEB-2026-000001');
    expect(frame.getAttribute('srcdoc')).toContain('€12,345.67');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(document.activeElement).toBe(within(dialog).getByTestId('invoice-preview-close'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(previewButton);

    await user.click(screen.getByRole('button', { name: 'Preview invoice DEB-2026-000003' }));
    expect((await screen.findByTestId('invoice-preview-error')).textContent).toBe(
      'Failed to load invoice preview',
    );
    await user.click(screen.getByTestId('invoice-preview-close'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('downloads the PDF with the session token', async () => {
    const authorizations: Array<string | null> = [];
    server.use(
      summaryHandler(),
      invoicesHandler(THREE_TYPES),
      http.get('/api/v1/billing/invoices/:id/pdf', ({ request }) => {
        authorizations.push(request.headers.get('authorization'));
        return new HttpResponse('%PDF-1.3 test', {
          headers: { 'content-type': 'application/pdf' },
        });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:invoice');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('/dashboard/billing');

    await user.click(await screen.findByRole('button', { name: 'Download invoice DEB-2026-000001 as PDF' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(authorizations).toEqual(['Bearer access-token']);
    expect(createObjectURL).toHaveBeenCalledWith(expect.any(Blob));
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('DEB-2026-000001.pdf');
  });

  it('prompts a company for missing billing data, checks the spec’s rule before sending, and saves', async () => {
    // A company's invoice needs all of it (a private person's, see BillingInfoForm.test.tsx, does not).
    const incomplete = makeBillingInfo({
      company_name: 'UAB Pavyzdys',
      billing_address: { street: '', city: '', state: '', postal_code: '', country: 'LT' },
      complete: false,
      missing: [
        'vat_number',
        'billing_address.street',
        'billing_address.city',
        'billing_address.postal_code',
      ],
      saved: false,
      updated_at: null,
    });
    const sent: unknown[] = [];
    server.use(
      summaryHandler(makeSummary(incomplete)),
      invoicesHandler([]),
      http.put('/api/v1/billing/info', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(
          makeBillingInfo({ company_name: 'UAB Pavyzdys', vat_number: 'LT100001919017' }),
        );
      }),
    );
    const user = userEvent.setup();
    renderApp('/dashboard/billing');

    const prompt = await screen.findByTestId('billing-info-incomplete');
    expect(prompt.textContent).toContain(
      'Your billing information is incomplete. Please update your billing details.',
    );
    expect(prompt.textContent).toContain('street address, city, postal code');
    expect(screen.getByTestId('invoices-empty').textContent).toBe(
      'No invoices yet. An invoice is issued for every successful payment.',
    );
    expect(screen.getByTestId('invoices-page').textContent).toBe('Page 1 of 1 (0 total)');

    await user.click(screen.getByTestId('billing-info-save'));
    expect((await screen.findByTestId('billing-vat-number-error')).textContent).toBe(
      'This field is required',
    );
    expect(screen.getByTestId('billing-street-error').textContent).toBe('This field is required');
    expect(sent).toEqual([]);

    await user.type(screen.getByLabelText(/VAT number/), 'LT100001919017');
    await user.type(screen.getByLabelText(/Street address/), 'Laisvės al. 1');
    await user.type(screen.getByLabelText(/City/), 'Kaunas');
    await user.type(screen.getByLabelText(/Postal code/), 'LT-44001');
    await user.click(screen.getByTestId('billing-info-save'));
    expect((await screen.findByTestId('billing-info-saved')).textContent).toBe('Billing information saved.');
    expect(sent[0]).toMatchObject({
      company_name: 'UAB Pavyzdys',
      vat_number: 'LT100001919017',
      billing_address: { street: 'Laisvės al. 1', city: 'Kaunas', postal_code: 'LT-44001', country: 'LT' },
    });
  });

  it('shows the server’s field errors and the spec’s update and load failures', async () => {
    let answer: 'invalid' | 'broken' = 'invalid';
    server.use(
      summaryHandler(),
      invoicesHandler([]),
      http.put('/api/v1/billing/info', () =>
        answer === 'invalid'
          ? HttpResponse.json(
              {
                detail: 'validation_error',
                message: 'Validation failed',
                errors: [
                  {
                    field: 'vat_number',
                    code: 'invalid_vat_number',
                    message: 'The VAT number format is invalid',
                  },
                ],
              },
              { status: 422 },
            )
          : HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    const view = renderApp('/dashboard/billing');

    await user.click(await screen.findByTestId('billing-info-save'));
    expect((await screen.findByTestId('billing-vat-number-error')).textContent).toBe(
      'The VAT number format is invalid',
    );
    expect(screen.getByTestId('billing-info-error').textContent).toContain(
      'Some billing details are missing or invalid',
    );
    answer = 'broken';
    await user.click(screen.getByTestId('billing-info-save'));
    await waitFor(() =>
      expect(screen.getByTestId('billing-info-error').textContent).toBe(
        'Failed to update billing information',
      ),
    );
    view.unmount();

    server.use(
      http.get('/api/v1/billing/', () =>
        HttpResponse.json({ detail: 'server_error', message: 'x' }, { status: 500 }),
      ),
      http.get('/api/v1/billing/invoices', () =>
        HttpResponse.json({ detail: 'server_error', message: 'x' }, { status: 500 }),
      ),
    );
    renderApp('/dashboard/billing');
    expect((await screen.findByTestId('billing-error', {}, { timeout: 4000 })).textContent).toContain(
      'Failed to load billing information',
    );
    expect((await screen.findByTestId('invoices-error', {}, { timeout: 4000 })).textContent).toContain(
      'Failed to load invoices',
    );
  });

  it('speaks Lithuanian for a Lithuanian account', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })), summaryHandler(), invoicesHandler(THREE_TYPES));
    renderApp('/dashboard/billing');
    const row = await screen.findByTestId('invoice-row-DEB-2026-000001');
    await waitFor(() => expect(within(row).getByText('Nauja paslauga')).toBeTruthy());
    expect(within(row).getByText('Apmokėta')).toBeTruthy();
    expect(screen.getByTestId('invoices-page').textContent).toBe('Puslapis 1 iš 1 (iš viso 3)');
    // Lithuanian money reads as Lithuanians write it (one formatter per locale), not '€12,345.67'.
    expect(screen.getByTestId('invoice-total-DEB-2026-000001').textContent).toBe('12\u00a0345,67\u00a0€');
  });
});
