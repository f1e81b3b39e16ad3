import { CSRF_COOKIE, type User } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountsLt } from '../../i18n/accounts.lt.ts';
import { i18n } from '../../i18n/i18n.ts';
import { makeUser, settingsOf, storeSession, userHandler } from '../../test/fixtures.ts';
import { invoicesHandler, makeInvoice } from '../billing/billing-fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

/** A signed-in user with settings; records every PUT /settings/. */
function signedIn(user: User = makeUser()) {
  storeSession();
  const puts: unknown[] = [];
  let settings = settingsOf(user);
  server.use(
    userHandler(user),
    http.get('/api/v1/settings/', () => HttpResponse.json(settings)),
    http.get('/api/v1/auth/sessions', () => HttpResponse.json({ sessions: [] })),
    http.put('/api/v1/settings/', async ({ request }) => {
      const patch = (await request.json()) as Partial<typeof settings>;
      puts.push(patch);
      settings = {
        ...settings,
        ...patch,
        notifications: { ...settings.notifications, ...patch.notifications },
      };
      return HttpResponse.json(settings);
    }),
  );
  return puts;
}

async function openSettings() {
  const view = renderApp('/dashboard/settings');
  await screen.findByTestId('settings-theme');
  return view;
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('settings: appearance, language, notifications', () => {
  it('applies the theme at once and saves it to the account', async () => {
    const puts = signedIn();
    await openSettings();

    await userEvent.click(screen.getByTestId('settings-theme-dark'));

    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByTestId('settings-theme-dark').getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(screen.getByTestId('settings-status').textContent).toBe('Settings saved'));
    // Saved once: the settings page saves itself, the header-toggle sync stays out of it.
    expect(puts).toEqual([{ theme: 'dark' }]);
  });

  it('switches the language at once and saves it', async () => {
    const puts = signedIn();
    await openSettings();

    await userEvent.click(screen.getByTestId('settings-language-lt'));

    await waitFor(() =>
      expect(screen.getByTestId('settings-status').textContent).toBe('Nustatymai išsaugoti'),
    );
    expect(i18n.language).toBe('lt');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Nustatymai');
    expect(puts).toEqual([{ language: 'lt' }]);
  });

  it('shows the server’s message when it refuses a setting', async () => {
    signedIn();
    server.use(
      http.put('/api/v1/settings/', () =>
        HttpResponse.json(
          {
            detail: 'validation_error',
            message: 'Invalid theme selection',
            errors: [{ field: 'theme', code: 'invalid_theme', message: 'Invalid theme selection' }],
          },
          { status: 422 },
        ),
      ),
    );
    await openSettings();

    await userEvent.click(screen.getByTestId('settings-theme-system'));

    expect((await screen.findByTestId('settings-error')).textContent).toBe('Invalid theme selection');
  });

  it('saves each notification switch, and puts it back when saving fails', async () => {
    const puts = signedIn();
    await openSettings();
    const email = await screen.findByTestId<HTMLInputElement>('settings-notifications-email');
    await waitFor(() => expect(email.checked).toBe(true));

    await userEvent.click(email);
    await waitFor(() => expect(puts).toEqual([{ notifications: { email: false } }]));
    expect(email.checked).toBe(false);

    server.use(http.put('/api/v1/settings/', () => HttpResponse.error()));
    const browser = screen.getByTestId<HTMLInputElement>('settings-notifications-browser');
    await userEvent.click(browser);

    expect((await screen.findByTestId('settings-error')).textContent).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
    await waitFor(() => expect(browser.checked).toBe(true));
  });

  it('says what turning email notifications off stops, and which mails still come, in both languages', async () => {
    signedIn();
    await openSettings();
    await screen.findByTestId('settings-notifications-email');
    const hint = screen.getByText(/^Reminders by email before a service’s paid time runs out\./);
    for (const still of ['payments and invoices', 'monitoring alerts', 'failed backups', 'security messages'])
      expect(hint.textContent).toContain(still);
    const lt = accountsLt.settings.notifications.emailHint;
    for (const still of [
      'mokėjimai ir sąskaitos',
      'stebėsenos įspėjimai',
      'atsarginės kopijos',
      'saugumo žinutės',
    ])
      expect(lt).toContain(still);
  });

  it('sends a header theme change to the server while signed in', async () => {
    const puts = signedIn();
    renderApp('/dashboard/services');
    await screen.findByTestId('header-user-name');

    await userEvent.click(screen.getByTestId('theme-option-dark'));

    await waitFor(() => expect(puts).toEqual([{ theme: 'dark' }]));
  });
});

const businessUser = () =>
  makeUser({
    account_type: 'business',
    company: {
      name: 'UAB Debesėlis',
      code: '304123456',
      vat_number: 'LT100001919017',
      country: 'LT',
      address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: '01103' },
    },
  });

describe('settings: company details', () => {
  it('shows an invoiced business account’s company read-only, with the way to support', async () => {
    signedIn(businessUser());
    server.use(invoicesHandler([makeInvoice()]));
    await openSettings();

    const company = screen.getByTestId('settings-company');
    expect(within(company).getByText('UAB Debesėlis')).toBeTruthy();
    expect(within(company).getByText('LT100001919017')).toBeTruthy();
    expect(within(company).getByText('Lithuania')).toBeTruthy();
    expect(within(company).getByText('Gedimino pr. 1, 01103, Vilnius')).toBeTruthy();
    expect(screen.getByTestId('settings-contact-support').getAttribute('href')).toBe('/contact');
    expect(screen.queryByTestId('settings-convert-open')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Company details' })).queryByRole('textbox')).toBeNull();
  });

  it('lets the owner correct the company details before the first invoice', async () => {
    const user = userEvent.setup();
    signedIn(businessUser());
    const puts: unknown[] = [];
    server.use(
      invoicesHandler([]),
      http.put('/api/v1/users/me/company', async ({ request }) => {
        const body = (await request.json()) as { business_details: { business_name: string } };
        puts.push(body);
        const corrected = businessUser();
        return HttpResponse.json({
          ...corrected,
          company: { ...corrected.company, name: body.business_details.business_name },
        });
      }),
    );
    await openSettings();

    await user.click(await screen.findByTestId('settings-company-edit'));
    expect(screen.queryByTestId('settings-contact-support')).toBeNull();
    const name = screen.getByTestId('settings-company-business-name');
    expect((name as HTMLInputElement).value).toBe('UAB Debesėlis');
    await user.clear(name);
    await user.type(name, 'UAB Debesėlis LT');
    await user.click(screen.getByTestId('settings-company-save'));

    expect(await screen.findByTestId('settings-company-saved')).toBeTruthy();
    expect(screen.getByTestId('settings-company-name').textContent).toBe('UAB Debesėlis LT');
    expect(puts).toEqual([
      {
        business_details: {
          business_name: 'UAB Debesėlis LT',
          business_code: '304123456',
          vat_number: 'LT100001919017',
          address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: '01103' },
          country: 'LT',
        },
      },
    ]);
  }, 15_000);

  it('locks the details when the server says an invoice was issued meanwhile', async () => {
    const user = userEvent.setup();
    signedIn(businessUser());
    server.use(
      invoicesHandler([]),
      http.put('/api/v1/users/me/company', () =>
        HttpResponse.json(
          { detail: 'company_details_locked', message: 'Company details cannot be changed once invoiced.' },
          { status: 409 },
        ),
      ),
    );
    await openSettings();

    await user.click(await screen.findByTestId('settings-company-edit'));
    await user.click(screen.getByTestId('settings-company-save'));

    expect((await screen.findByTestId('settings-company-error')).textContent).toBe(
      'Company details cannot be changed once invoiced.',
    );
    expect(screen.getByTestId('settings-contact-support')).toBeTruthy();
    expect(screen.queryByTestId('settings-company-form')).toBeNull();
  }, 15_000);

  it('converts a personal account after a confirmation that says it is permanent', async () => {
    const business = makeUser({
      account_type: 'business',
      company: {
        name: 'UAB Debesėlis',
        code: '304123456',
        vat_number: null,
        country: 'LT',
        address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: '' },
      },
    });
    signedIn();
    const posted: unknown[] = [];
    server.use(
      invoicesHandler([]),
      http.post('/api/v1/users/me/convert-to-business', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json(business);
      }),
    );
    const user = userEvent.setup();
    await openSettings();

    await user.click(screen.getByTestId('settings-convert-open'));
    await user.click(screen.getByTestId('settings-convert-review'));
    expect(await screen.findByTestId('settings-convert-business-name-error')).toBeTruthy();
    expect(screen.getByTestId('settings-convert-street-error').textContent).toBe('This field is required');

    await user.type(screen.getByTestId('settings-convert-business-name'), 'UAB Debesėlis');
    await user.type(screen.getByTestId('settings-convert-business-code'), '304123456');
    await user.type(screen.getByTestId('settings-convert-street'), 'Gedimino pr. 1');
    await user.type(screen.getByTestId('settings-convert-city'), 'Vilnius');
    await user.click(screen.getByTestId('settings-convert-review'));

    const confirmStep = await screen.findByTestId('settings-convert-confirm-step');
    expect(confirmStep.textContent).toContain('The conversion is permanent');
    expect(posted).toEqual([]);
    await user.click(screen.getByTestId('settings-convert-confirm'));

    expect(await screen.findByTestId('settings-convert-success')).toBeTruthy();
    expect(posted).toEqual([
      {
        business_details: {
          business_name: 'UAB Debesėlis',
          business_code: '304123456',
          address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: '' },
          country: 'LT',
        },
      },
    ]);
    expect(screen.getByTestId('settings-account-type').textContent).toBe('Business');
    expect(screen.getByTestId('settings-company-name').textContent).toBe('UAB Debesėlis');
  });

  it('shows the server’s message when the account is already a business account', async () => {
    signedIn();
    server.use(
      http.post('/api/v1/users/me/convert-to-business', () =>
        HttpResponse.json(
          { detail: 'already_business', message: 'This account is already a business account.' },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    await openSettings();

    await user.click(screen.getByTestId('settings-convert-open'));
    await user.type(screen.getByTestId('settings-convert-business-name'), 'UAB Debesėlis');
    await user.type(screen.getByTestId('settings-convert-business-code'), '304123456');
    await user.type(screen.getByTestId('settings-convert-street'), 'Gedimino pr. 1');
    await user.type(screen.getByTestId('settings-convert-city'), 'Vilnius');
    await user.click(screen.getByTestId('settings-convert-review'));
    await user.click(await screen.findByTestId('settings-convert-confirm'));

    expect((await screen.findByTestId('settings-convert-error')).textContent).toBe(
      'This account is already a business account.',
    );
  });
});
