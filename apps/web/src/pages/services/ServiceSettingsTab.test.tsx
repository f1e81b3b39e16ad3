import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeUser, storeSession, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import {
  apiError,
  makeOverviewItem,
  servicePath,
  setCsrfCookie,
  workspaceHandlers,
} from '../../test/workspace-fixtures.ts';

// Pages load on demand and the machine may be busy: give every wait up to 5 s.
configure({ asyncUtilTimeout: 5000 });

const SETTINGS_TAB = `/dashboard/services/${SERVICE_ID}/settings`;
const CONFIG = { name: 'Team drive', description: 'Shared files', expiry_reminders: true };

// The routes load their pages on demand: load them once, so no test waits for the first import.
beforeAll(async () => {
  await import('./ServiceDetailPage.tsx');
  await import('./ServiceSettingsTab.tsx');
});

beforeEach(() => {
  storeSession();
  setCsrfCookie();
  server.use(userHandler(makeUser()), ...workspaceHandlers());
});

describe('service settings', () => {
  it('renames the service (PUT /services/{id}) and says when that failed', async () => {
    const bodies: unknown[] = [];
    let fail = false;
    server.use(
      http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
      http.put(servicePath(''), async ({ request }) => {
        bodies.push(await request.json());
        if (fail) return apiError(409, 'service_not_found', 'Service not found');
        return HttpResponse.json(makeOverviewItem({ name: 'Office drive' }));
      }),
    );
    renderApp(SETTINGS_TAB);
    const name = await screen.findByTestId<HTMLInputElement>('service-settings-name');
    expect(name.value).toBe('Team drive');
    expect(screen.getByTestId<HTMLInputElement>('service-settings-description').value).toBe('Shared files');

    await userEvent.clear(name);
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-name-error')).textContent).toBe('This field is required');

    await userEvent.type(name, 'Office drive');
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-general-saved')).textContent).toBe('Saved.');
    expect(bodies).toEqual([{ name: 'Office drive', description: 'Shared files' }]);

    fail = true;
    await userEvent.click(screen.getByTestId('service-general-submit'));
    expect((await screen.findByTestId('service-general-error')).textContent).toBe(
      'Failed to update service: Service not found',
    );
  });

  it('turns expiry reminders off (PUT /services/{id}/config) and says when that failed', async () => {
    const bodies: unknown[] = [];
    let fail = false;
    server.use(
      http.get(servicePath('/config'), () => HttpResponse.json(CONFIG)),
      http.put(servicePath('/config'), async ({ request }) => {
        bodies.push(await request.json());
        if (fail) return apiError(503, 'service_unavailable', 'The service is temporarily unavailable.');
        return HttpResponse.json({ ...CONFIG, expiry_reminders: false });
      }),
    );
    renderApp(SETTINGS_TAB);
    const reminders = await screen.findByTestId<HTMLInputElement>('service-expiry-reminders');
    expect(reminders.checked).toBe(true);
    await userEvent.click(reminders);
    await userEvent.click(screen.getByTestId('service-reminders-submit'));
    await waitFor(() => expect(bodies).toEqual([{ expiry_reminders: false }]));
    expect((await screen.findByTestId('service-reminders-saved')).textContent).toBe('Saved.');

    fail = true;
    await userEvent.click(screen.getByTestId('service-reminders-submit'));
    expect((await screen.findByTestId('service-reminders-error')).textContent).toBe(
      'Failed to configure service: The service is temporarily unavailable.',
    );
  });

  it('says when the settings cannot be loaded', async () => {
    server.use(http.get(servicePath('/config'), () => apiError(500, 'server_error', 'Server error')));
    renderApp(SETTINGS_TAB);
    expect(
      (await screen.findByTestId('service-config-load-error', {}, { timeout: 4000 })).textContent,
    ).toContain('Failed to load the service settings');
    expect(screen.getByTestId('service-change-plan').getAttribute('href')).toBe(
      `/dashboard/plans/change?service=${SERVICE_ID}`,
    );
  });
});
