import { CSRF_COOKIE, STORAGE_KEYS } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../i18n/language.ts';
import { makeUser, VAT_CHECK_DIGITS_REFUSED } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

const errorOf = (testId: string) => screen.queryByTestId(`${testId}-error`)?.textContent ?? null;

async function fillPersonal(user: UserEvent, overrides: Partial<Record<string, string>> = {}) {
  const values = {
    'register-first-name': 'Ona',
    'register-last-name': 'Petraitė',
    'register-email': 'ona@example.lt',
    'register-password': 'Secret123',
    'register-confirm-password': 'Secret123',
    ...overrides,
  };
  for (const [testId, value] of Object.entries(values)) {
    if (value) await user.type(screen.getByTestId(testId), value);
  }
}

/** The registration page on screen, and a user to fill it in. */
async function openRegister() {
  const user = userEvent.setup();
  const view = renderApp('/auth/register');
  await screen.findByTestId('register-form');
  return { user, ...view };
}

function answerRegister(status: number, body: JsonBodyType) {
  const received: unknown[] = [];
  server.use(
    http.post('/api/v1/auth/register', async ({ request }) => {
      received.push(await request.json());
      return HttpResponse.json(body, { status });
    }),
  );
  return received;
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
});

describe('registration form', () => {
  it('checks every field with the spec messages before calling the server', async () => {
    const { user } = await openRegister();

    await fillPersonal(user, {
      'register-first-name': 'O',
      'register-email': 'ona@',
      'register-password': 'secret12',
      'register-confirm-password': 'secret13',
    });
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(errorOf('register-first-name')).toBe('Must be at least 2 characters'));
    expect(errorOf('register-last-name')).toBeNull();
    expect(errorOf('register-email')).toBe('Please enter a valid email address');
    expect(errorOf('register-password')).toBe('Password must contain an uppercase letter');
    expect(errorOf('register-confirm-password')).toBe('Passwords do not match');
    expect(errorOf('register-country')).toBe('This field is required');
  });

  it.each([
    ['short', 'Password must be at least 8 characters'],
    ['NOLOWER123', 'Password must contain a lowercase letter'],
    ['NoNumbersHere', 'Password must contain a number'],
  ])('applies the password rule to %s', async (password, expected) => {
    const { user } = await openRegister();

    await user.type(screen.getByTestId('register-password'), password);
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(errorOf('register-password')).toBe(expected));
    expect(errorOf('register-confirm-password')).toBe('This field is required');
  });

  it('says it all in Lithuanian', async () => {
    await changeLanguage('lt');
    const { user } = await openRegister();

    await fillPersonal(user, {
      'register-first-name': '',
      'register-email': 'ona',
      'register-password': 'slaptazodis1',
      'register-confirm-password': 'kitas',
    });
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(errorOf('register-first-name')).toBe('Šis laukas privalomas'));
    expect(errorOf('register-email')).toBe('Įveskite teisingą el. pašto adresą');
    expect(errorOf('register-password')).toBe('Slaptažodyje turi būti didžioji raidė');
    expect(errorOf('register-confirm-password')).toBe('Slaptažodžiai nesutampa');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Susikurkite paskyrą');
  });

  it('fills in the detected country, names countries in the interface language, and lets the visitor change it', async () => {
    server.use(
      http.get('/api/v1/auth/detect-country', () =>
        HttpResponse.json({ country: 'LT', source: 'proxy_header' }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/auth/register');

    const country = await screen.findByTestId<HTMLSelectElement>('register-country');
    await waitFor(() => expect(country.value).toBe('LT'));
    expect(country.selectedOptions[0]?.textContent).toBe('Lithuania');
    expect(screen.getByText('Filled in from your location. Change it if it is not right.')).toBeTruthy();

    await user.selectOptions(country, 'LV');
    expect(country.value).toBe('LV');
  });
});

describe('business registration', () => {
  it('shows the company fields for a business account and requires them, the VAT number excepted', async () => {
    server.use(
      http.get('/api/v1/auth/detect-country', () => HttpResponse.json({ country: 'LT', source: 'geoip' })),
    );
    const { user } = await openRegister();
    expect(screen.queryByTestId('register-business-fields')).toBeNull();

    await user.click(screen.getByTestId('register-account-type-business'));
    expect(screen.getByTestId('register-account-type-business').getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('register-business-fields')).toBeTruthy();

    await fillPersonal(user);
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(errorOf('register-business-name')).toBe('This field is required'));
    expect(errorOf('register-business-code')).toBe('This field is required');
    expect(errorOf('register-street')).toBe('This field is required');
    expect(errorOf('register-city')).toBe('This field is required');
    expect(errorOf('register-vat-number')).toBeNull();
    expect(errorOf('register-postal-code')).toBeNull();

    await user.type(screen.getByTestId('register-vat-number'), '123');
    await user.click(screen.getByTestId('register-submit'));
    await waitFor(() => expect(errorOf('register-vat-number')).toBe('The VAT number format is invalid'));
  });

  it.each([
    ...VAT_CHECK_DIGITS_REFUSED,
    ['en', 'LT10000191901', 'The VAT number format is invalid'],
  ] as const)(
    'refuses a VAT number that fails its country’s format or check digits (%s, %s) before sending',
    async (language, vatNumber, expected) => {
      if (language === 'lt') await changeLanguage('lt');
      server.use(
        http.get('/api/v1/auth/detect-country', () => HttpResponse.json({ country: 'LT', source: 'geoip' })),
      );
      const received = answerRegister(201, { user: makeUser(), token: null });
      const { user } = await openRegister();
      await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('register-country').value).toBe('LT'));
      await user.click(screen.getByTestId('register-account-type-business'));
      await fillPersonal(user);
      await user.type(screen.getByTestId('register-business-name'), 'UAB Debesėlis');
      await user.type(screen.getByTestId('register-business-code'), '304123456');
      await user.type(screen.getByTestId('register-vat-number'), vatNumber);
      await user.type(screen.getByTestId('register-street'), 'Gedimino pr. 1');
      await user.type(screen.getByTestId('register-city'), 'Vilnius');
      await user.click(screen.getByTestId('register-submit'));

      await waitFor(() => expect(errorOf('register-vat-number')).toBe(expected));
      expect(received).toEqual([]);
    },
  );

  it('sends the business account with its company details and goes to verify-email without signing in', async () => {
    server.use(
      http.get('/api/v1/auth/detect-country', () => HttpResponse.json({ country: 'LT', source: 'geoip' })),
    );
    const received = answerRegister(201, {
      user: makeUser({ account_type: 'business', email_verified: false }),
      token: null,
    });
    const { user, router } = await openRegister();
    await waitFor(() => expect(screen.getByTestId<HTMLSelectElement>('register-country').value).toBe('LT'));

    await user.click(screen.getByTestId('register-account-type-business'));
    await fillPersonal(user);
    await user.type(screen.getByTestId('register-business-name'), 'UAB Debesėlis');
    await user.type(screen.getByTestId('register-business-code'), '304123456');
    await user.type(screen.getByTestId('register-vat-number'), 'lt 100001919017');
    await user.type(screen.getByTestId('register-street'), 'Gedimino pr. 1');
    await user.type(screen.getByTestId('register-city'), 'Vilnius');
    await user.click(screen.getByTestId('register-submit'));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/verify-email'));
    expect(received).toEqual([
      {
        email: 'ona@example.lt',
        password: 'Secret123',
        firstName: 'Ona',
        lastName: 'Petraitė',
        accountType: 'business',
        country: 'LT',
        business_details: {
          business_name: 'UAB Debesėlis',
          business_code: '304123456',
          vat_number: 'LT100001919017',
          address: { street: 'Gedimino pr. 1', city: 'Vilnius', state: '', postal_code: '' },
          country: 'LT',
        },
      },
    ]);
    expect((await screen.findByTestId('verify-email-sent-to')).textContent).toContain('ona@example.lt');
    // Nobody is signed in before the address is verified.
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });
});

describe('registration answers', () => {
  async function registerPersonal() {
    const { user, ...view } = await openRegister();
    await fillPersonal(user);
    await user.selectOptions(screen.getByTestId('register-country'), 'LT');
    await user.click(screen.getByTestId('register-submit'));
    return view;
  }

  it('sends a registered and verified address to sign in, with the spec message', async () => {
    answerRegister(409, { detail: 'email_registered', message: 'x', action: 'login' });

    const { router } = await registerPersonal();

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect((await screen.findByTestId('login-notice')).textContent).toBe(
      'This email is already registered and verified. Please sign in instead.',
    );
    expect(screen.getByTestId<HTMLInputElement>('login-email').value).toBe('ona@example.lt');
  });

  it('says the registration could not be updated when the server could not retry it', async () => {
    answerRegister(409, { detail: 'email_registered', message: 'x' });

    await registerPersonal();

    expect((await screen.findByTestId('register-error')).textContent).toBe(
      'Failed to update registration. Please try again.',
    );
  });

  it('puts the server’s field messages under their fields', async () => {
    answerRegister(422, {
      detail: 'validation_error',
      message: 'Some fields are not valid. Please correct them and try again.',
      errors: [{ field: 'email', code: 'invalid_email', message: 'This address cannot receive email' }],
    });

    await registerPersonal();

    expect((await screen.findByTestId('register-error')).textContent).toBe(
      'Some fields are not valid. Please correct them and try again.',
    );
    expect(errorOf('register-email')).toBe('This address cannot receive email');
  });

  it('falls back to the general registration message', async () => {
    server.use(http.post('/api/v1/auth/register', () => new HttpResponse('nope', { status: 400 })));

    await registerPersonal();

    expect((await screen.findByTestId('register-error')).textContent).toBe(
      'Registration failed. Please check your information and try again',
    );
  });

  it('shows the server error text for a 500', async () => {
    answerRegister(500, { detail: 'server_error', message: 'Server error. Please try again later' });

    await registerPersonal();

    expect((await screen.findByTestId('register-error')).textContent).toBe(
      'Server error. Please try again later',
    );
  });
});
