import { CSRF_COOKIE } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, settingsOf, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

/** A signed-in personal account; records what the conversion posts. */
function signedInPersonal(language: 'en' | 'lt' = 'en') {
  const user = makeUser({ country: 'LT', language });
  storeSession();
  const posted: unknown[] = [];
  server.use(
    userHandler(user),
    http.get('/api/v1/settings/', () => HttpResponse.json(settingsOf(user))),
    http.post('/api/v1/users/me/convert-to-business', async ({ request }) => {
      posted.push(await request.json());
      return HttpResponse.json(makeUser({ account_type: 'business' }));
    }),
  );
  return posted;
}

async function fillCompany(user: UserEvent, vatNumber: string, companyCode = '304123456') {
  await user.click(await screen.findByTestId('settings-convert-open'));
  await user.type(screen.getByTestId('settings-convert-business-name'), 'UAB Debesėlis');
  await user.type(screen.getByTestId('settings-convert-business-code'), companyCode);
  if (vatNumber) await user.type(screen.getByTestId('settings-convert-vat-number'), vatNumber);
  await user.type(screen.getByTestId('settings-convert-street'), 'Gedimino pr. 1');
  await user.type(screen.getByTestId('settings-convert-city'), 'Vilnius');
  await user.click(screen.getByTestId('settings-convert-review'));
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

// Typing a whole company takes a few seconds on a busy machine.
describe('conversion to a business account: the VAT number', { timeout: 20_000 }, () => {
  it('is refused with the field error when its check digits fail, and nothing is sent', async () => {
    await changeLanguage('lt');
    const posted = signedInPersonal('lt');
    const user = userEvent.setup();
    renderApp('/dashboard/settings');

    await fillCompany(user, 'LT100001919018');

    await waitFor(() =>
      expect(screen.getByTestId('settings-convert-vat-number-error').textContent).toBe(
        'Tai netinkamas PVM mokėtojo kodas: nesutampa kontroliniai skaitmenys. Patikrinkite, ar nėra klaidos',
      ),
    );
    expect(screen.queryByTestId('settings-convert-confirm-step')).toBeNull();
    expect(posted).toEqual([]);
  });

  it("refuses a Lithuanian company code that is not 9 digits and another state's VAT number", async () => {
    const posted = signedInPersonal();
    const user = userEvent.setup();
    renderApp('/dashboard/settings');

    await fillCompany(user, 'DE136695976', '123');

    await waitFor(() =>
      expect(screen.getByTestId('settings-convert-vat-number-error').textContent).toBe(
        'The VAT number must be of the company’s country (its prefix, EL for Greece)',
      ),
    );
    expect(screen.getByTestId('settings-convert-business-code-error').textContent).toBe(
      'This is not a company code of the chosen country: check its digits',
    );
    expect(screen.queryByTestId('settings-convert-confirm-step')).toBeNull();
    expect(posted).toEqual([]);
  });

  it('is shown, as it will be kept, in the confirmation of the permanent conversion', async () => {
    const posted = signedInPersonal();
    const user = userEvent.setup();
    renderApp('/dashboard/settings');

    await fillCompany(user, 'lt 1000 0191 9017');

    const summary = await screen.findByTestId('settings-convert-summary');
    expect(screen.getByTestId('settings-convert-summary-vat').textContent).toBe('LT100001919017');
    expect(within(summary).getByText('UAB Debesėlis')).toBeTruthy();
    expect(within(summary).getByText('Lithuania')).toBeTruthy();
    await user.click(screen.getByTestId('settings-convert-confirm'));
    await waitFor(() =>
      expect(posted).toMatchObject([{ business_details: { vat_number: 'LT100001919017' } }]),
    );
  });

  it('says in the confirmation when none was given', async () => {
    signedInPersonal();
    const user = userEvent.setup();
    renderApp('/dashboard/settings');

    await fillCompany(user, '');

    expect((await screen.findByTestId('settings-convert-summary-vat')).textContent).toBe(
      'None: without one, no order is reverse-charged',
    );
  });
});
