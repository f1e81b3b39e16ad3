import { CSRF_COOKIE } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, storeSession, userHandler, VAT_CHECK_DIGITS_REFUSED } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { invoicesHandler, makeBillingInfo, makeSummary, summaryHandler } from './billing-fixtures.ts';

/** Billing info with a company; records every PUT. */
function billingWithCompany(language: 'en' | 'lt') {
  storeSession();
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  const sent: unknown[] = [];
  server.use(
    userHandler(makeUser({ language })),
    summaryHandler(
      makeSummary(makeBillingInfo({ company_name: 'UAB Pavyzdys', vat_number: 'LT100001919017' })),
    ),
    invoicesHandler([]),
    http.put('/api/v1/billing/info', async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json(makeBillingInfo());
    }),
  );
  return sent;
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('billing info: the VAT number', { timeout: 20_000 }, () => {
  it.each([...VAT_CHECK_DIGITS_REFUSED, ['en', 'DE12345678', 'The VAT number format is invalid']] as const)(
    'refuses a number that cannot exist (%s, %s) under the field, before sending',
    async (language, vat, expected) => {
      if (language === 'lt') await changeLanguage('lt');
      const sent = billingWithCompany(language);
      const user = userEvent.setup();
      renderApp('/dashboard/billing');

      const field = await screen.findByDisplayValue('LT100001919017');
      await user.clear(field);
      await user.type(field, vat);
      await user.click(screen.getByTestId('billing-info-save'));

      await waitFor(() => expect(screen.getByTestId('billing-vat-number-error').textContent).toBe(expected));
      expect(sent).toEqual([]);
    },
  );
});

describe('billing info of a private person', { timeout: 20_000 }, () => {
  const privateInfo = (country: string) =>
    makeBillingInfo({
      billing_address: { street: '', city: '', state: '', postal_code: '', country },
      complete: false,
      missing:
        country === ''
          ? [
              'billing_address.street',
              'billing_address.city',
              'billing_address.postal_code',
              'billing_address.country',
            ]
          : ['billing_address.street', 'billing_address.city', 'billing_address.postal_code'],
      saved: false,
      updated_at: null,
    });

  it('is not pressed to complete an address when the name and the country its invoice needs are there', async () => {
    storeSession();
    server.use(userHandler(makeUser()), summaryHandler(makeSummary(privateInfo('LT'))), invoicesHandler([]));
    renderApp('/dashboard/billing');

    expect((await screen.findByTestId('billing-info-address-optional')).textContent).toContain(
      'You may add your address',
    );
    expect(screen.queryByTestId('billing-info-incomplete')).toBeNull();
    expect(screen.queryByTestId('billing-incomplete-banner')).toBeNull();
    // The country given at registration, prefilled.
    expect(screen.getByLabelText<HTMLSelectElement>(/Country/).value).toBe('LT');
  });

  it('is still asked for the country when there is none', async () => {
    storeSession();
    server.use(userHandler(makeUser()), summaryHandler(makeSummary(privateInfo(''))), invoicesHandler([]));
    renderApp('/dashboard/billing');

    expect((await screen.findByTestId('billing-info-incomplete')).textContent).toContain('country');
    expect(screen.getByTestId('billing-incomplete-banner')).toBeTruthy();
  });
});
