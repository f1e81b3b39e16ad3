// "Browser notifications" does something (issue 13): switched on, it asks the browser (and only
// then); with the browser's permission, a workspace becoming ready or a payment completing shows
// a notification while the dashboard is open but not looked at.
import { CSRF_COOKIE, type User } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, settingsOf, storeSession, userHandler } from '../test/fixtures.ts';
import { dashboardHandler } from '../test/activity-fixtures.ts';
import { renderApp } from '../test/render-app.tsx';
import { server } from '../test/server.ts';
import { makeOverviewItem } from '../test/workspace-fixtures.ts';

const shown: { title: string; body?: string; tag?: string }[] = [];
const requestPermission = vi.fn<() => Promise<NotificationPermission>>();

class FakeNotification {
  static permission: NotificationPermission = 'default';
  static requestPermission = requestPermission;
  onclick: (() => void) | null = null;
  constructor(title: string, options: NotificationOptions = {}) {
    shown.push({ title, body: options.body, tag: options.tag });
  }
  close(): void {}
}

function signedIn(user: User) {
  storeSession();
  let settings = settingsOf(user);
  server.use(
    userHandler(user),
    http.get('/api/v1/settings/', () => HttpResponse.json(settings)),
    http.put('/api/v1/settings/', async ({ request }) => {
      const patch = (await request.json()) as { notifications?: Partial<typeof settings.notifications> };
      settings = { ...settings, notifications: { ...settings.notifications, ...patch.notifications } };
      return HttpResponse.json(settings);
    }),
  );
}

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
  shown.length = 0;
  FakeNotification.permission = 'default';
  requestPermission.mockReset();
  requestPermission.mockImplementation(() => {
    FakeNotification.permission = 'granted';
    return Promise.resolve('granted');
  });
  vi.stubGlobal('Notification', FakeNotification);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('browser notifications setting', () => {
  it('asks the browser only when switched on, and says when it is not allowed', async () => {
    signedIn(makeUser({ notification_browser: false }));
    renderApp('/dashboard/settings');
    const box = await screen.findByTestId('settings-notifications-browser');
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    expect(requestPermission).not.toHaveBeenCalled();

    requestPermission.mockImplementation(() => {
      FakeNotification.permission = 'denied';
      return Promise.resolve('denied');
    });
    await userEvent.click(box);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect((await screen.findByTestId('settings-browser-permission')).textContent).toContain(
      'This browser blocks notifications from Debesis',
    );

    await userEvent.click(box);
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('settings-browser-permission')).toBeNull();
  });

  it('offers to allow this browser when the account has them on but the browser was never asked', async () => {
    signedIn(makeUser({ notification_browser: true }));
    renderApp('/dashboard/settings');
    await userEvent.click(await screen.findByTestId('settings-browser-allow'));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByTestId('settings-browser-permission')).toBeNull());
  });
});

/**
 * The customer waits in another tab (notifications allowed, the page not focused) for "Office
 * files": being set up at first, ready when the list is read again. Says how often it was read.
 */
function waitInAnotherTab(account: Pick<User, 'notification_browser'>) {
  FakeNotification.permission = 'granted';
  vi.spyOn(document, 'hasFocus').mockReturnValue(false);
  signedIn(makeUser(account));
  let answers = 0;
  server.use(
    dashboardHandler(),
    http.get('/api/v1/services/overview', () => {
      answers += 1;
      const status = answers === 1 ? 'processing' : 'active';
      return HttpResponse.json({ services: [makeOverviewItem({ name: 'Office files', status })] });
    }),
  );
  return () => answers;
}

describe('browser notifications', () => {
  it('tell the customer in another tab that a workspace they waited for is ready', async () => {
    waitInAnotherTab({ notification_browser: true });
    renderApp('/dashboard/services');
    // The list asks again every 2 s while the workspace is being set up.
    await waitFor(() => expect(shown).toHaveLength(1), { timeout: 6000 });
    expect(shown[0]).toMatchObject({
      title: 'Your workspace is ready',
      body: '“Office files” is ready to use.',
    });
    expect(requestPermission).not.toHaveBeenCalled();
  });

  it('stay quiet when the account has them off', async () => {
    const answers = waitInAnotherTab({ notification_browser: false });
    renderApp('/dashboard/services');
    await waitFor(() => expect(answers()).toBeGreaterThanOrEqual(2), { timeout: 6000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(shown).toEqual([]);
  });
});
