import { RETENTION_MONTHS, SHIPPED_FEATURES } from '@debesis/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resetAnalytics } from '../../analytics/analytics.ts';
import { CONSENT_STORAGE_KEY, reloadConsent, saveConsent } from '../../consent/consent.ts';
import { i18n } from '../../i18n/i18n.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

beforeEach(() => {
  reloadConsent();
  resetAnalytics();
});

describe('cookie consent banner', () => {
  it('asks on the first visit, keeps "necessary only" and can be opened again from the footer', async () => {
    // Choosing "all" at the end sends the page view.
    server.use(
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post('/api/v1/analytics/events', () => HttpResponse.json({ status: 'accepted' }, { status: 202 })),
    );
    const user = userEvent.setup();
    renderApp('/');
    const banner = await screen.findByTestId('cookie-consent');
    await user.click(within(banner).getByTestId('consent-necessary'));
    expect(screen.queryByTestId('cookie-consent')).toBeNull();
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toContain('"necessary"');

    await user.click(screen.getByTestId('footer-cookie-settings'));
    const again = await screen.findByTestId('cookie-consent');
    expect(within(again).getByTestId('cookie-consent-current').textContent).toMatch(/necessary only/);
    expect(within(again).getByTestId('consent-necessary').getAttribute('aria-pressed')).toBe('true');
    await user.click(within(again).getByTestId('consent-all'));
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toContain('"all"');
  });

  it('asks in one short line with its two choices, in the reader’s language', async () => {
    // Choosing "all" sends the page view.
    server.use(
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post('/api/v1/analytics/events', () => HttpResponse.json({ status: 'accepted' }, { status: 202 })),
    );
    await i18n.changeLanguage('lt');
    const user = userEvent.setup();
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Slapukai' });
    expect(within(banner).getByRole('heading', { level: 2 }).textContent).toBe('Slapukai');
    expect(within(banner).getByText(/^Saugome tai, ko reikia svetainei/)).toBeTruthy();
    expect(within(banner).getByRole('link', { name: 'Privatumas' }).getAttribute('href')).toBe('/privacy');
    expect(
      within(banner)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Tik būtini', 'Leisti visus']);
    await user.click(within(banner).getByRole('button', { name: 'Leisti visus' }));
    expect(screen.queryByRole('region', { name: 'Slapukai' })).toBeNull();
    expect(window.localStorage.getItem(CONSENT_STORAGE_KEY)).toContain('"all"');
  });

  it('sends the page view only after "all" is chosen', async () => {
    const received: unknown[] = [];
    server.use(
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post('/api/v1/analytics/events', async ({ request }) => {
        received.push(await request.json());
        return HttpResponse.json({ status: 'accepted' }, { status: 202 });
      }),
    );
    const user = userEvent.setup();
    renderApp('/faq');
    await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' });
    expect(received).toEqual([]);
    await user.click(screen.getByTestId('consent-all'));
    await vi.waitFor(() => expect(received).toEqual([{ name: 'page_view', path: '/faq', language: 'en' }]));
  });
});

describe('home demo', () => {
  it('rotates every 4 seconds, pauses while hovered, and its tabs can be chosen', async () => {
    saveConsent('necessary');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp('/');
    const demo = await screen.findByTestId('home-demo');
    const selected = () => within(demo).getByRole('tab', { selected: true }).textContent;
    expect(
      within(demo)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Overview', 'Management', 'Activity', 'Workspace']);
    expect(selected()).toBe('Overview');
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(selected()).toBe('Management');

    fireEvent.mouseEnter(demo);
    await act(() => vi.advanceTimersByTimeAsync(9000));
    expect(selected()).toBe('Management');
    fireEvent.mouseLeave(demo);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(selected()).toBe('Activity');

    fireEvent.click(within(demo).getByRole('tab', { name: 'Workspace' }));
    expect(selected()).toBe('Workspace');
    expect(within(demo).getByRole('tabpanel').getAttribute('data-tab')).toBe('workspace');
  });

  it('moves between tabs with the arrow keys and stops for good with the pause button', async () => {
    saveConsent('necessary');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderApp('/');
    const demo = await screen.findByTestId('home-demo');
    const selected = () => within(demo).getByRole('tab', { selected: true }).textContent;
    const first = within(demo).getByRole('tab', { name: 'Overview' });
    fireEvent.keyDown(first, { key: 'ArrowLeft' });
    expect(selected()).toBe('Workspace');
    fireEvent.keyDown(within(demo).getByRole('tab', { name: 'Workspace' }), { key: 'Home' });
    expect(selected()).toBe('Overview');

    fireEvent.click(within(demo).getByTestId('home-demo-toggle'));
    fireEvent.blur(within(demo).getByTestId('home-demo-toggle'));
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(selected()).toBe('Overview');
    expect(within(demo).getByTestId('home-demo-toggle').getAttribute('aria-label')).toBe('Play the demo');
  });
});

describe('public pages', () => {
  it.each([
    ['/about', 'About Debesis', 'Apie Debesis'],
    ['/docs', 'Documentation', 'Dokumentacija'],
    ['/privacy', 'Privacy policy', 'Privatumo politika'],
    ['/terms', 'Terms of service', 'Paslaugų teikimo sąlygos'],
    // A VPN solution once the VPN has shipped (shipped-features.test.tsx checks it is hidden until then).
    ...(SHIPPED_FEATURES.includes('vpn')
      ? [['/solutions/secure-access', 'Secure access', 'Saugi prieiga']]
      : []),
    ['/solutions/team-drive', 'Team drive', 'Komandos diskas'],
    ['/solutions/business-storage', 'Business storage', 'Verslo saugykla'],
  ])('%s has its heading in English and Lithuanian', async (path, english, lithuanian) => {
    saveConsent('necessary');
    renderApp(path);
    await screen.findByRole('heading', { level: 1, name: english });
    await act(() => i18n.changeLanguage('lt'));
    await screen.findByRole('heading', { level: 1, name: lithuanian });
  });

  it('privacy: states the retention the maintenance job applies, in both languages', async () => {
    saveConsent('necessary');
    renderApp('/privacy');
    const retention = await screen.findByRole('region', { name: 'How long we keep it' });
    expect(retention.textContent).toContain(
      `Contact messages for ${RETENTION_MONTHS.contactMessages} months`,
    );
    expect(retention.textContent).toContain(
      `analytics counts for ${RETENTION_MONTHS.analyticsEvents} months`,
    );
    await act(() => i18n.changeLanguage('lt'));
    const lithuanian = await screen.findByRole('region', { name: 'Kiek laiko saugome' });
    expect(lithuanian.textContent).toContain(`Žinutes – ${RETENTION_MONTHS.contactMessages} mėn.`);
    expect(lithuanian.textContent).not.toContain('{{');
  });

  it('contact: checks the form in the reader’s language, sends it and shows the success state', async () => {
    saveConsent('necessary');
    let sent: unknown = null;
    server.use(
      http.get('/api/v1/contact', () =>
        HttpResponse.json({ support_email: 'support@debesis.localhost', reply_within_hours: 24 }),
      ),
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post('/api/v1/contact', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(
          { id: '00000000-0000-4000-8000-000000000001', status: 'received', reply_within_hours: 24 },
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    await act(() => i18n.changeLanguage('lt'));
    renderApp('/contact');
    await screen.findByTestId('contact-form');
    expect(screen.getByTestId('contact-reply-promise').textContent).toBe('Atsakome per 24 valandas.');
    expect(screen.getByTestId('contact-hours').textContent).toBe('Pirmadienis–penktadienis, 9:00–18:00 EET');
    await user.click(screen.getByTestId('contact-submit'));
    expect(await screen.findAllByText('Šis laukas privalomas')).toHaveLength(4);
    await user.type(screen.getByTestId('contact-name'), 'Ona');
    await user.type(screen.getByTestId('contact-email'), 'ona@example.lt');
    await user.type(screen.getByTestId('contact-subject'), 'NFS');
    await user.type(screen.getByTestId('contact-message'), 'Trumpa');
    await user.click(screen.getByTestId('contact-submit'));
    expect(await screen.findByText('Turi būti bent 10 simbolių')).toBeTruthy();
    await user.type(screen.getByTestId('contact-message'), ' žinutė apie NFS');
    await user.click(screen.getByTestId('contact-submit'));
    await screen.findByTestId('contact-sent');
    expect(sent).toEqual({
      name: 'Ona',
      email: 'ona@example.lt',
      subject: 'NFS',
      message: 'Trumpa žinutė apie NFS',
    });
  });

  it('contact: a failure says to try again later or to email support', async () => {
    saveConsent('necessary');
    server.use(
      http.get('/api/v1/contact', () =>
        HttpResponse.json({ support_email: 'support@debesis.localhost', reply_within_hours: 24 }),
      ),
      http.get('/api/v1/csrf', () => HttpResponse.json({ csrf_token: 'token' })),
      http.post('/api/v1/contact', () =>
        HttpResponse.json({ detail: 'server_error', message: 'Server error' }, { status: 500 }),
      ),
    );
    const user = userEvent.setup();
    renderApp('/contact');
    await screen.findByTestId('contact-support-email');
    await user.type(screen.getByTestId('contact-name'), 'Ona');
    await user.type(screen.getByTestId('contact-email'), 'ona@example.lt');
    await user.type(screen.getByTestId('contact-subject'), 'NFS');
    await user.type(screen.getByTestId('contact-message'), 'A question about NFS mounts');
    await user.click(screen.getByTestId('contact-submit'));
    expect((await screen.findByTestId('contact-error')).textContent).toBe(
      'Your message could not be sent. Please try again later, or email us at support@debesis.localhost.',
    );
  });
});
