import { LABEL_LIMIT, type Label } from '@debesis/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, userHandler } from '../../../test/fixtures.ts';
import { renderApp } from '../../../test/render-app.tsx';
import { recordRequest, type ReceivedRequest } from '../../../test/requests.ts';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { apiError, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

configure({ asyncUtilTimeout: 5000 });

const TAB = `/dashboard/services/${SERVICE_ID}/labels`;
const base = `/api/v1/services/${SERVICE_ID}/labels`;

const label = (key: string, value: string): Label => ({
  key,
  value,
  updated_at: '2026-12-01T10:00:00.000Z',
});

loadServicePages(() => import('./ServiceLabelsTab.tsx'));

let labels: Label[];
let received: ReceivedRequest[];
beforeEach(() => {
  signIn();
  labels = [label('env', 'prod'), label('team', '')];
  received = [];
  const record = (request: Request) => recordRequest(received, request);
  server.use(
    ...workspaceHandlers({}),
    http.get(base, () => HttpResponse.json({ labels })),
    http.put(`${base}/:key`, async ({ request, params }) => {
      await record(request);
      const { value } = received.at(-1)?.body as { value: string };
      const made = label(String(params.key), value);
      labels = [...labels.filter((entry) => entry.key !== made.key), made].sort((a, b) =>
        a.key.localeCompare(b.key),
      );
      return HttpResponse.json(made);
    }),
    http.delete(`${base}/:key`, async ({ request, params }) => {
      await record(request);
      labels = labels.filter((entry) => entry.key !== params.key);
      return new HttpResponse(null, { status: 204 });
    }),
  );
});

async function openAdd() {
  const add = await screen.findByTestId<HTMLButtonElement>('labels-add');
  await waitFor(() => expect(add.disabled).toBe(false));
  await userEvent.click(add);
  return screen.findByTestId('label-dialog');
}

describe('the labels tab', () => {
  it('is in the tab bar just before Settings, and lists the labels with their values', async () => {
    renderApp(TAB);
    const tab = await screen.findByTestId('service-tab-labels');
    expect(tab.textContent).toBe('Labels');
    const order = [...document.querySelectorAll('[data-testid^="service-tab-"]')].map((link) =>
      link.getAttribute('data-testid'),
    );
    expect(order.slice(-2)).toEqual(['service-tab-labels', 'service-tab-settings']);
    expect((await screen.findByTestId('label-env-value')).textContent).toBe('prod');
    expect(screen.getByTestId('label-team-value').textContent).toBe('(empty)');
    expect(screen.getByTestId('labels-counter').textContent).toBe('2 of 20');
  });

  it('adds a label, refusing a bad key on its field before anything is sent, and changes a value', async () => {
    const user = userEvent.setup();
    renderApp(TAB);
    let dialog = await openAdd();
    await user.type(within(dialog).getByTestId('label-key'), 'Customer');
    await user.type(within(dialog).getByTestId('label-value'), 'acme');
    await user.click(within(dialog).getByTestId('label-submit'));
    expect((await within(dialog).findByTestId('label-key-error')).textContent).toMatch(
      /^Use 1–63 lower-case/,
    );
    expect(received).toEqual([]);
    await user.clear(within(dialog).getByTestId('label-key'));
    await user.type(within(dialog).getByTestId('label-key'), 'customer');
    await user.click(within(dialog).getByTestId('label-submit'));
    await waitFor(() => expect(screen.queryByTestId('label-dialog')).toBeNull());
    expect(received).toEqual([{ method: 'PUT', path: `${base}/customer`, body: { value: 'acme' } }]);
    expect((await screen.findByTestId('label-customer-value')).textContent).toBe('acme');

    await user.click(screen.getByTestId('label-env-edit'));
    dialog = await screen.findByTestId('label-dialog');
    // The key is the label: it is not offered for change.
    expect(within(dialog).queryByTestId('label-key')).toBeNull();
    await user.clear(within(dialog).getByTestId('label-value'));
    await user.type(within(dialog).getByTestId('label-value'), 'staging');
    await user.click(within(dialog).getByTestId('label-submit'));
    await waitFor(() => expect(screen.queryByTestId('label-dialog')).toBeNull());
    expect(received.at(-1)).toEqual({ method: 'PUT', path: `${base}/env`, body: { value: 'staging' } });
    await waitFor(() => expect(screen.getByTestId('label-env-value').textContent).toBe('staging'));
  });

  it('keeps Add and Edit open when full, and says why a 21st is refused', async () => {
    labels = Array.from({ length: LABEL_LIMIT }, (_, index) => label(`k${index}`, 'v'));
    server.use(
      http.put(`${base}/extra`, () =>
        apiError(
          409,
          'label_limit',
          'This service has as many labels as it may have (20). Delete one first.',
        ),
      ),
    );
    const user = userEvent.setup();
    renderApp(TAB);
    expect((await screen.findByTestId('labels-counter')).textContent).toBe('20 of 20');
    expect(screen.getByTestId<HTMLButtonElement>('label-k0-edit').disabled).toBe(false);
    const dialog = await openAdd();
    await user.type(within(dialog).getByTestId('label-key'), 'extra');
    await user.click(within(dialog).getByTestId('label-submit'));
    expect((await within(dialog).findByTestId('label-save-error')).textContent).toContain(
      'as many labels as it may have (20)',
    );
  });

  it('removes a label after asking', async () => {
    const user = userEvent.setup();
    renderApp(TAB);
    await user.click(await screen.findByTestId('label-env-delete'));
    const confirm = await screen.findByTestId('label-delete-dialog');
    expect(confirm.textContent).toContain('Remove label env?');
    await user.click(within(confirm).getByRole('button', { name: /delete/i }));
    await waitFor(() => expect(screen.queryByTestId('label-delete-dialog')).toBeNull());
    expect(received).toEqual([{ method: 'DELETE', path: `${base}/env`, body: null }]);
    await waitFor(() => expect(screen.queryByTestId('label-env')).toBeNull());
  });

  it('says it in Lithuanian, the field’s rule too', async () => {
    server.use(userHandler(makeUser({ language: 'lt' })));
    const user = userEvent.setup();
    renderApp(TAB);
    await waitFor(() => expect(screen.getByTestId('service-tab-labels').textContent).toBe('Etiketės'));
    await waitFor(() => expect(screen.getByTestId('label-team-value').textContent).toBe('(tuščia)'));
    const dialog = await openAdd();
    await user.type(within(dialog).getByTestId('label-key'), '-env');
    await user.click(within(dialog).getByTestId('label-submit'));
    expect((await within(dialog).findByTestId('label-key-error')).textContent).toMatch(
      /^Naudokite 1–63 mažąsias raides/,
    );
    expect(received).toEqual([]);
  });
});
