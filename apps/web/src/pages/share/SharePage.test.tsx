import type { PublicShare } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

const TOKEN = 'Tk'.repeat(21) + 'x';
const api = `/api/v1/public/shares/${TOKEN}`;

function makeShare(overrides: Partial<PublicShare> = {}): PublicShare {
  return {
    name: 'report.pdf',
    item_type: 'file',
    path: '',
    type: 'file',
    size: 2048,
    size_complete: true,
    modified_at: '2026-11-20T10:00:00.000Z',
    entries: [],
    truncated: false,
    expires_at: null,
    downloads_left: 2,
    has_password: false,
    ...overrides,
  };
}

const refusal = (status: number, detail: string) =>
  HttpResponse.json({ detail, message: detail }, { status });

beforeAll(async () => {
  await import('./SharePage.tsx');
});

describe('the public share page', () => {
  it('shows a file with its size and a download link', async () => {
    server.use(http.get(api, () => HttpResponse.json(makeShare())));
    renderApp(`/s/${TOKEN}`);
    expect((await screen.findByTestId('share-name')).textContent).toBe('report.pdf');
    expect(screen.getByTestId('share-size').textContent).toBe('2 KB');
    expect(screen.getByTestId('share-expiry').textContent).toBe('This link never expires.');
    expect(screen.getByTestId('share-downloads-left').textContent).toBe('2');
    expect(screen.getByTestId('share-download').getAttribute('href')).toBe(`${api}/download?path=`);
    expect(screen.getByTestId('share-view').getAttribute('href')).toBe(`${api}/download?path=&inline=1`);
  });

  it('walks into a folder and zips where the visitor is', async () => {
    server.use(
      http.get(api, ({ request }) => {
        const path = new URL(request.url).searchParams.get('path') ?? '';
        const entry = (name: string, type: 'file' | 'folder') => ({
          name,
          type,
          size: type === 'file' ? 10 : 0,
          modified_at: '2026-11-20T10:00:00.000Z',
        });
        return HttpResponse.json(
          makeShare({
            name: 'projects',
            item_type: 'folder',
            type: 'folder',
            path,
            size_complete: false,
            entries:
              path === ''
                ? [entry('drawings', 'folder'), entry('plan.txt', 'file')]
                : [entry('one.png', 'file')],
          }),
        );
      }),
    );
    renderApp(`/s/${TOKEN}`);
    expect((await screen.findByTestId('share-size')).textContent).toBe('at least 2 KB');
    expect(screen.getByTestId('share-entry-download-plan.txt').getAttribute('href')).toBe(
      `${api}/download?path=plan.txt`,
    );
    await userEvent.click(screen.getByRole('button', { name: /drawings/ }));
    await screen.findByTestId('share-entry-one.png');
    expect(screen.getByTestId('share-download').getAttribute('href')).toBe(`${api}/download?path=drawings`);
    expect(screen.getByTestId('share-download').textContent).toBe('Download all as .zip');
  });

  it('asks for the password, says when it is wrong, and opens the link with the right one', async () => {
    let unlocked = false;
    server.use(
      http.get(api, () =>
        unlocked ? HttpResponse.json(makeShare()) : refusal(401, 'share_link_password_required'),
      ),
      http.post(`${api}/unlock`, async ({ request }) => {
        const { password } = (await request.json()) as { password: string };
        if (password !== 'open sesame') return refusal(401, 'share_link_wrong_password');
        unlocked = true;
        return HttpResponse.json({ ok: true, expires_at: '2026-11-28T12:00:00.000Z' });
      }),
    );
    renderApp(`/s/${TOKEN}`);
    await userEvent.type(await screen.findByTestId('share-password-input'), 'guess');
    await userEvent.click(screen.getByTestId('share-password-submit'));
    expect((await screen.findByTestId('share-password-error')).textContent).toBe(
      'The password is not right.',
    );
    await userEvent.clear(screen.getByTestId('share-password-input'));
    await userEvent.type(screen.getByTestId('share-password-input'), 'open sesame');
    await userEvent.click(screen.getByTestId('share-password-submit'));
    await waitFor(() => expect(screen.getByTestId('share-name').textContent).toBe('report.pdf'));
  });

  it.each([
    [404, 'share_link_not_found', 'Link not found'],
    [410, 'share_link_revoked', 'Link turned off'],
    [410, 'share_link_expired', 'Link expired'],
    [410, 'share_link_over_limit', 'Download limit reached'],
    [403, 'share_link_ip_refused', 'Not available from your network'],
    [404, 'share_link_unavailable', 'No longer available'],
    [503, 'node_unreachable', 'Temporarily unavailable'],
  ])('answers %i %s with its own page', async (status, code, title) => {
    server.use(http.get(api, () => refusal(status, code)));
    renderApp(`/s/${TOKEN}`);
    const page = await screen.findByTestId(`share-refusal-${code}`);
    expect(page.querySelector('h1')?.textContent).toBe(title);
    expect(screen.queryByTestId('share-download')).toBeNull();
  });
});
