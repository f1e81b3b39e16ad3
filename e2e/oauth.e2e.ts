// Sign-in with Google as a visitor does it, in Chromium: the button on the sign-in page, the
// provider (a real OpenID Provider on 127.0.0.1, started by the global setup, that signs its one
// person in and consents at once), back through the API's callback to the web app's callback
// page, which trades the one-time code for tokens and ends on the services page, signed in.
import { describe, expect, it } from 'vitest';
import { E2E_OIDC_ACCOUNT } from '../scripts/lib/local-oidc-provider.ts';
import { useBrowser } from './support/browser.ts';

describe('OAuth sign-in', () => {
  const browser = useBrowser();

  it('signs in with Google from the sign-in page and lands on the services page', async () => {
    const page = await browser.newPage();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(frame.url());
    });

    await page.goto('/auth/login');
    const google = page.getByTestId('oauth-google');
    await google.waitFor();
    expect(await google.getAttribute('href')).toMatch(/^\/api\/v1\/auth\/oauth\/google\/start\?redirect=/);

    await google.click();
    await page.waitForURL('**/dashboard/services', { timeout: 30_000 });

    // It went by the web app's callback page, and no token ever stood in the address bar.
    expect(visited.some((url) => new URL(url).pathname === '/auth/oauth/callback')).toBe(true);
    const accessToken = await page.evaluate(() => localStorage.getItem('token'));
    expect(accessToken).toBeTruthy();
    for (const url of visited) expect(url).not.toContain(accessToken ?? '');

    // Signed in as the provider's person, with a verified address and no password.
    await page.getByTestId('header-user-menu').waitFor();
    const me = await page.evaluate(async (token) => {
      const response = await fetch('/api/v1/users/me', { headers: { authorization: `Bearer ${token}` } });
      return (await response.json()) as {
        email: string;
        first_name: string;
        email_verified: boolean;
        has_password: boolean;
      };
    }, accessToken);
    expect(me).toMatchObject({
      email: E2E_OIDC_ACCOUNT.email,
      first_name: E2E_OIDC_ACCOUNT.given_name,
      email_verified: true,
      has_password: false,
    });
  });

  it('shows the error page for a provider that is not switched on', async () => {
    const page = await browser.newPage();
    await page.goto('/api/v1/auth/oauth/github/start?redirect=%2Fdashboard%2Fservices');
    await page.waitForURL('**/auth/oauth/error?**');
    expect(new URL(page.url()).searchParams.get('reason')).toBe('oauth_provider_disabled');
    await page.getByTestId('oauth-error').waitFor();
    expect(await page.getByTestId('oauth-error-provider').innerText()).toContain('GitHub');
  });
});
