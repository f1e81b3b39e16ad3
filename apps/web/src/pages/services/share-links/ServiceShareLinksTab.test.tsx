import type { CreateShareLinkRequest, ShareLink } from '@debesis/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { makeShare, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

const TAB = `/dashboard/services/${SERVICE_ID}/share-links`;
const base = `/api/v1/shares/${SERVICE_ID}`;
const ACTIVE_ID = '1f0c7a2e-3b4d-4e5f-8a6b-7c8d9e0f1a2b';
const LIMITED_ID = '2a1d8b3f-4c5e-4f60-9b7c-8d9e0f1a2b3c';
const URL_OF = (token: string) => `http://localhost/s/${token}`;

function makeLink(overrides: Partial<ShareLink> = {}): ShareLink {
  return {
    id: ACTIVE_ID,
    type: 'samba',
    target: 'projects',
    label: 'Project files',
    item_type: 'folder',
    url: URL_OF('A'.repeat(43)),
    expiry: '7d',
    expires_at: '2026-12-05T10:00:00.000Z',
    has_password: true,
    download_limit: null,
    downloads: 2,
    ip_allow: [],
    ip_deny: [],
    state: 'active',
    limit_reached: false,
    created_at: '2026-11-28T10:00:00.000Z',
    revoked_at: null,
    last_access_at: null,
    ...overrides,
  };
}

loadServicePages(() => import('./ServiceShareLinksTab.tsx'));

let links: ShareLink[];
beforeEach(() => {
  signIn();
  links = [
    makeLink(),
    makeLink({
      id: LIMITED_ID,
      label: null,
      type: 'path',
      target: 'home/ona/report.pdf',
      item_type: 'file',
      download_limit: 3,
      downloads: 3,
      limit_reached: true,
      has_password: false,
    }),
  ];
  server.use(
    ...workspaceHandlers({ shares: [makeShare()] }),
    http.get(`/api/v1/nfs/${SERVICE_ID}/shares`, () => HttpResponse.json({ exports: [], limit: 10 })),
    http.get(`${base}/shares`, () => HttpResponse.json({ links })),
  );
});

describe('the share links tab', () => {
  it('lists the links with their state, downloads and actions', async () => {
    renderApp(TAB);
    const row = await screen.findByTestId(`share-link-row-${ACTIVE_ID}`);
    expect(within(row).getByRole('rowheader').textContent).toContain('Project files');
    expect(screen.getByTestId(`share-link-state-${ACTIVE_ID}`).textContent).toBe('Active');
    expect(screen.getByTestId(`share-link-state-${LIMITED_ID}`).textContent).toBe('Limit reached');
    expect(screen.getByTestId(`share-link-downloads-${LIMITED_ID}`).textContent).toBe('3 / 3');
    expect(screen.getByTestId(`share-link-downloads-${ACTIVE_ID}`).textContent).toBe('2 / no limit');
    expect(screen.getByTestId(`share-link-revoke-${ACTIVE_ID}`)).toBeTruthy();
  });

  it('creates a link to a file picked in the storage, and shows its URL', async () => {
    let sent: CreateShareLinkRequest | undefined;
    server.use(
      http.get(`${base}/storage`, ({ request }) => {
        const path = new URL(request.url).searchParams.get('path') ?? '';
        const entries =
          path === ''
            ? [{ name: 'home', type: 'folder', size: 0, modified_at: '2026-11-01T00:00:00.000Z' }]
            : [{ name: 'report.pdf', type: 'file', size: 2048, modified_at: '2026-11-01T00:00:00.000Z' }];
        return HttpResponse.json({ path, entries, truncated: false });
      }),
      http.post(`${base}/shares`, async ({ request }) => {
        sent = (await request.json()) as CreateShareLinkRequest;
        return HttpResponse.json(
          makeLink({ id: '3b2e9c40-5d6f-4a71-8c8d-9e0f1a2b3c4d', url: URL_OF('B'.repeat(43)) }),
          {
            status: 201,
          },
        );
      }),
    );
    renderApp(TAB);
    await userEvent.click(await screen.findByTestId('share-link-create'));
    await userEvent.selectOptions(screen.getByTestId('share-link-type'), 'path');
    await userEvent.click(await screen.findByTestId('share-link-picker-entry-home'));
    await userEvent.click(await screen.findByTestId('share-link-picker-choose-report.pdf'));
    await userEvent.selectOptions(screen.getByTestId('share-link-expiry'), '30d');
    await userEvent.type(screen.getByTestId('share-link-password'), 'open sesame');
    await userEvent.type(screen.getByTestId('share-link-limit'), '5');
    await userEvent.type(screen.getByTestId('share-link-ip-allow'), '192.168.1.0/24');
    await userEvent.click(screen.getByTestId('share-link-submit'));
    expect((await screen.findByTestId('share-link-created-url')).textContent).toBe(URL_OF('B'.repeat(43)));
    expect(sent).toEqual({
      type: 'path',
      target: 'home/report.pdf',
      expiry: '30d',
      password: 'open sesame',
      download_limit: 5,
      ip_allow: ['192.168.1.0/24'],
      ip_deny: [],
    });
  });

  it('says which address line is wrong as it is typed, and sends nothing', async () => {
    let posted = false;
    server.use(
      http.post(`${base}/shares`, () => {
        posted = true;
        return HttpResponse.json({}, { status: 500 });
      }),
    );
    renderApp(TAB);
    await userEvent.click(await screen.findByTestId('share-link-create'));
    await userEvent.type(screen.getByTestId('share-link-ip-deny'), '10.0.0.1{Enter}10.0.0.1/8');
    expect((await screen.findByTestId('share-link-ip-deny-error')).textContent).toBe(
      'Line 2: Use the network’s first address, such as 192.168.1.0/24',
    );
    await userEvent.click(screen.getByTestId('share-link-submit'));
    expect(posted).toBe(false);
  });

  it('revokes a link after asking, and shows its access log with filters', async () => {
    let revoked = false;
    const asked: string[] = [];
    server.use(
      http.post(`${base}/shares/${ACTIVE_ID}/revoke`, () => {
        revoked = true;
        links = [makeLink({ state: 'revoked', revoked_at: '2026-11-28T11:00:00.000Z' }), links[1]!];
        return HttpResponse.json(links[0]);
      }),
      http.get(`${base}/shares/${ACTIVE_ID}/access-logs`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json({
          entries: [
            {
              id: '2',
              at: '2026-11-28T10:05:00.000Z',
              ip: '203.0.113.7',
              user_agent: 'curl/8.5',
              result: 'wrong_password',
              bytes_sent: 0,
              path: null,
            },
          ],
          total: 41,
        });
      }),
    );
    renderApp(TAB);
    await userEvent.click(await screen.findByTestId(`share-link-logs-${ACTIVE_ID}`));
    const rows = await screen.findAllByTestId('share-link-log-row');
    expect(within(rows[0]!).getByText('Wrong password')).toBeTruthy();
    expect(screen.getByTestId('share-link-logs-page').textContent).toBe('Page 1 of 3 (41 total)');
    await userEvent.selectOptions(screen.getByTestId('share-link-log-result'), 'wrong_password');
    await userEvent.type(screen.getByTestId('share-link-log-ip'), '203.');
    await waitFor(() => expect(asked.at(-1)).toContain('result=wrong_password'));
    expect(asked.at(-1)).toContain('ip=203.');
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByTestId(`share-link-revoke-${ACTIVE_ID}`));
    expect(revoked).toBe(false);
    await userEvent.click(await screen.findByTestId('share-link-revoke-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId(`share-link-state-${ACTIVE_ID}`).textContent).toBe('Revoked'),
    );
    expect(revoked).toBe(true);
  });
});
