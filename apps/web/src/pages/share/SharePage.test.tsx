// The public share page against msw (which fails on any request not answered here, so a
// session refresh or sign-in call would fail the test too).
import type { PublicShare, StorageEntry } from '@debesis/contract';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';

configure({ asyncUtilTimeout: 5000 });

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

const entry = (name: string, type: 'file' | 'folder', size = 10): StorageEntry => ({
  name,
  type,
  size: type === 'file' ? size : 0,
  modified_at: '2026-11-20T10:00:00.000Z',
});

const refusal = (status: number, detail: string, extra: object = {}) =>
  HttpResponse.json({ detail, message: detail, ...extra }, { status });

beforeAll(async () => {
  await import('./SharePage.tsx');
});

describe('the public share page', () => {
  it('shows a file with its size, its terms, a download link and a view link', async () => {
    server.use(http.get(api, () => HttpResponse.json(makeShare())));
    renderApp(`/s/${TOKEN}`);
    expect((await screen.findByTestId('share-name')).textContent).toBe('report.pdf');
    expect(screen.getByTestId('share-page')).toBeTruthy();
    expect(screen.getByTestId('share-size').textContent).toBe('2 KB');
    expect(screen.getByTestId('share-expiry').textContent).toBe('Never expires');
    expect(screen.getByTestId('share-downloads-left').textContent).toBe('2');
    const download = screen.getByTestId('share-download');
    expect(download.getAttribute('href')).toBe(`${api}/download?path=`);
    expect(download.hasAttribute('download')).toBe(true);
    expect(screen.getByTestId('share-view').getAttribute('href')).toBe(`${api}/download?path=&inline=1`);
    await waitFor(() => expect(document.title).toContain('report.pdf'));
    expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex, nofollow',
    );
  });

  it('gives a file the browser cannot show no view link, and says when the link expires', async () => {
    server.use(
      http.get(api, () =>
        HttpResponse.json(
          makeShare({ name: 'backup.tar', expires_at: '2026-12-01T10:00:00.000Z', downloads_left: null }),
        ),
      ),
    );
    renderApp(`/s/${TOKEN}`);
    expect((await screen.findByTestId('share-expiry')).textContent).toMatch(/^Expires .*2026/);
    expect(screen.queryByTestId('share-view')).toBeNull();
    expect(screen.queryByTestId('share-downloads-left')).toBeNull();
  });

  it('walks into a folder, zips where the visitor is, and goes back with the browser', async () => {
    const asked: string[] = [];
    server.use(
      http.get(api, ({ request }) => {
        const path = new URL(request.url).searchParams.get('path') ?? '';
        asked.push(path);
        return HttpResponse.json(
          makeShare({
            name: 'projects',
            item_type: 'folder',
            type: 'folder',
            path,
            size_complete: path !== '',
            downloads_left: null,
            entries:
              path === ''
                ? [entry('drawings', 'folder'), entry('plan.txt', 'file'), entry('data.bin', 'file')]
                : [entry('one.png', 'file')],
            truncated: path === '',
          }),
        );
      }),
    );
    const { router } = renderApp(`/s/${TOKEN}`);
    expect((await screen.findByTestId('share-size')).textContent).toBe('at least 2 KB');
    expect(screen.getByTestId('share-name').textContent).toBe('projects');
    expect(screen.getByTestId('share-truncated')).toBeTruthy();
    expect(screen.getByTestId('share-download').getAttribute('href')).toBe(`${api}/download?path=`);
    expect(screen.getByTestId('share-entry-download-plan.txt').getAttribute('href')).toBe(
      `${api}/download?path=plan.txt`,
    );
    expect(screen.getByTestId('share-entry-view-plan.txt').getAttribute('href')).toBe(
      `${api}/download?path=plan.txt&inline=1`,
    );
    expect(screen.queryByTestId('share-entry-view-data.bin')).toBeNull();

    await userEvent.click(within(screen.getByTestId('share-entry-drawings')).getByRole('link'));
    await screen.findByTestId('share-entry-one.png');
    expect(router.state.location.search).toBe('?path=drawings');
    expect(screen.getByTestId('share-name').textContent).toBe('drawings');
    expect(screen.getByTestId('share-download').getAttribute('href')).toBe(`${api}/download?path=drawings`);
    expect(screen.getByTestId('share-download').textContent).toBe('Download all as .zip');
    expect(screen.getByTestId('share-entry-download-one.png').getAttribute('href')).toBe(
      `${api}/download?path=drawings%2Fone.png`,
    );
    expect(screen.queryByTestId('share-truncated')).toBeNull();
    const crumbs = screen.getByTestId('share-breadcrumb');
    expect(crumbs.textContent).toContain('projects');
    expect(crumbs.textContent).toContain('drawings');

    await router.navigate(-1);
    await screen.findByTestId('share-entry-plan.txt');
    expect(router.state.location.search).toBe('');

    await router.navigate(1);
    await screen.findByTestId('share-entry-one.png');
    await userEvent.click(
      within(screen.getByTestId('share-breadcrumb')).getByRole('link', { name: 'projects' }),
    );
    await screen.findByTestId('share-entry-plan.txt');
    expect(asked).toEqual(['', 'drawings', '', 'drawings', '']);
  });

  it('opens a deep place in a folder straight from its URL', async () => {
    server.use(
      http.get(api, ({ request }) => {
        const path = new URL(request.url).searchParams.get('path');
        return path === 'a/b'
          ? HttpResponse.json(
              makeShare({ name: 'root', item_type: 'folder', type: 'folder', path, entries: [] }),
            )
          : refusal(404, 'share_link_unavailable');
      }),
    );
    renderApp(`/s/${TOKEN}?path=a%2Fb`);
    expect((await screen.findByTestId('share-breadcrumb')).textContent).toBe('rootab');
    expect(screen.getByText('This folder is empty.')).toBeTruthy();
  });

  it('asks for the password, says when it is wrong or tried too often, and opens with the right one', async () => {
    let unlocked = false;
    let tries = 0;
    server.use(
      http.get(api, () =>
        unlocked ? HttpResponse.json(makeShare()) : refusal(401, 'share_link_password_required'),
      ),
      http.post(`${api}/unlock`, async ({ request }) => {
        const { password } = (await request.json()) as { password: string };
        tries += 1;
        if (tries === 2) return refusal(429, 'too_many_attempts', { retry_after: 1 });
        if (password !== 'open sesame') return refusal(401, 'share_link_wrong_password');
        unlocked = true;
        return HttpResponse.json({ ok: true, expires_at: '2026-11-28T12:00:00.000Z' });
      }),
    );
    renderApp(`/s/${TOKEN}`);
    const input = await screen.findByTestId('share-password-input');
    expect(document.activeElement).toBe(input);
    expect(screen.queryByTestId('share-name')).toBeNull();

    await userEvent.type(input, 'guess');
    await userEvent.click(screen.getByTestId('share-password-submit'));
    expect((await screen.findByTestId('share-password-error')).textContent).toBe(
      'The password is not right.',
    );

    await userEvent.click(screen.getByTestId('share-password-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('share-password-error').textContent).toBe(
        'Too many tries. Please wait 1 second and try again.',
      ),
    );
    // No try is sent until the wait is over.
    expect(screen.getByTestId('share-password-submit').hasAttribute('disabled')).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('share-password-submit').hasAttribute('disabled')).toBe(false),
    );

    expect(input.getAttribute('type')).toBe('password');
    await userEvent.click(screen.getByTestId('share-password-toggle'));
    expect(input.getAttribute('type')).toBe('text');

    await userEvent.clear(input);
    await userEvent.type(input, 'open sesame');
    await userEvent.click(screen.getByTestId('share-password-submit'));
    await waitFor(() => expect(screen.getByTestId('share-name').textContent).toBe('report.pdf'));
  });

  it('says so when the browser did not keep the grant of a right password', async () => {
    server.use(
      http.get(api, () => refusal(401, 'share_link_password_required')),
      http.post(`${api}/unlock`, () =>
        HttpResponse.json({ ok: true, expires_at: '2026-11-28T12:00:00.000Z' }),
      ),
    );
    renderApp(`/s/${TOKEN}`);
    await userEvent.type(await screen.findByTestId('share-password-input'), 'open sesame');
    await userEvent.click(screen.getByTestId('share-password-submit'));
    expect((await screen.findByTestId('share-password-error')).textContent).toMatch(/cookies/);
  });

  it('sends no empty password', async () => {
    server.use(http.get(api, () => refusal(401, 'share_link_password_required')));
    renderApp(`/s/${TOKEN}`);
    await userEvent.click(await screen.findByTestId('share-password-submit'));
    expect(screen.getByTestId('share-password-error').textContent).toBeTruthy();
  });

  it.each([
    [404, 'share_link_not_found', 'Link not found'],
    [410, 'share_link_revoked', 'Link turned off'],
    [410, 'share_link_expired', 'Link expired'],
    [410, 'share_link_over_limit', 'Download limit reached'],
    [403, 'share_link_ip_refused', 'Not available from your network'],
    [404, 'share_link_unavailable', 'No longer available'],
  ])('answers %i %s with its own page, final', async (status, code, title) => {
    server.use(http.get(api, () => refusal(status, code)));
    renderApp(`/s/${TOKEN}`);
    const page = await screen.findByTestId(`share-refusal-${code}`);
    expect(page.querySelector('h1')?.textContent).toBe(title);
    expect(page.querySelector('p')?.textContent).toBeTruthy();
    expect(screen.queryByTestId('share-download')).toBeNull();
    expect(screen.queryByTestId('share-retry')).toBeNull();
    await waitFor(() => expect(document.title).toContain(title));
  });

  it('speaks Lithuanian when the visitor switches to it', async () => {
    server.use(http.get(api, () => refusal(410, 'share_link_revoked')));
    renderApp(`/s/${TOKEN}`);
    await screen.findByTestId('share-refusal-share_link_revoked');
    await userEvent.click(screen.getByTestId('language-option-lt'));
    const page = await screen.findByTestId('share-refusal-share_link_revoked');
    await waitFor(() => expect(page.querySelector('h1')?.textContent).toBe('Nuoroda išjungta'));
    expect(page.querySelector('p')?.textContent).toBe('Šią nuorodą jos savininkas išjungė.');
  });

  it('answers an unreachable storage node with a page that tries again', async () => {
    let calls = 0;
    server.use(
      http.get(api, () => {
        calls += 1;
        return calls === 1 ? refusal(503, 'node_unreachable') : HttpResponse.json(makeShare());
      }),
    );
    renderApp(`/s/${TOKEN}`);
    const page = await screen.findByTestId('share-refusal-node_unreachable');
    expect(page.querySelector('h1')?.textContent).toBe('Temporarily unavailable');
    await userEvent.click(screen.getByTestId('share-retry'));
    expect((await screen.findByTestId('share-name')).textContent).toBe('report.pdf');
  });

  it('answers a network failure with a page that tries again', async () => {
    server.use(http.get(api, () => HttpResponse.error()));
    renderApp(`/s/${TOKEN}`);
    await screen.findByTestId('share-refusal-network_error');
    expect(screen.getByTestId('share-retry')).toBeTruthy();
  });
});
