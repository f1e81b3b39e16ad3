import { CSRF_COOKIE } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
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
  it.each([
    [
      'en',
      'LT100001919018',
      'This is not a valid VAT number: its check digits do not match. Please check it for a typo',
    ],
    [
      'lt',
      'LT100001919018',
      'Tai netinkamas PVM mokėtojo kodas: nesutampa kontroliniai skaitmenys. Patikrinkite, ar nėra klaidos',
    ],
    ['en', 'DE12345678', 'The VAT number format is invalid'],
  ] as const)(
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
