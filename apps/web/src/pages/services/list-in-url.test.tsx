import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { makeGroup, makeShare, makeWorkspaceUser, workspaceHandlers } from '../../test/workspace-fixtures.ts';
import { makeEntry } from '../../test/activity-fixtures.ts';
import { pageFromParam } from '../../workspace/url-list.ts';
import { catalogueHandlers } from '../plans/plans-fixtures.ts';
import { signIn } from '../../test/sign-in.ts';
import { loadServicePages } from '../../test/service-pages.ts';

const TAB = `/dashboard/services/${SERVICE_ID}`;
/** user01 … user25: a page of 20 and a page of 5. */
const names = (prefix: string) =>
  Array.from({ length: 25 }, (_, index) => `${prefix}${String(index + 1).padStart(2, '0')}`);

loadServicePages(
  () => import('./users/ServiceUsersTab.tsx'),
  () => import('./samba/ServiceSambaTab.tsx'),
);

beforeEach(() => signIn());

function rows(testId: string): string[] {
  const list = screen.getByTestId(`${testId}-list`);
  return within(list)
    .getAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent ?? '');
}

describe('a list’s page and filter in the address', () => {
  it('opens page 2 from ?page=2, and back and forward step between pages', async () => {
    server.use(
      ...workspaceHandlers({ users: names('user').map((name) => makeWorkspaceUser({ name })), limit: 30 }),
    );
    const { router } = renderApp(`${TAB}/users?page=2`);

    await screen.findByTestId('user-user21');
    expect(rows('workspace-users')).toEqual(['user21', 'user22', 'user23', 'user24', 'user25']);
    expect(screen.getByTestId('workspace-users-page').textContent).toBe('Page 2 of 2');

    await userEvent.click(screen.getByTestId('workspace-users-previous'));
    await screen.findByTestId('user-user01');
    expect(rows('workspace-users')).toHaveLength(20);
    expect(router.state.location.search).toBe('');

    await act(() => router.navigate(-1));
    await screen.findByTestId('user-user25');
    expect(router.state.location.search).toBe('?page=2');
    await act(() => router.navigate(1));
    await screen.findByTestId('user-user01');
  });

  it('filters by ?q= and puts what is typed in the address, back on page 1', async () => {
    server.use(
      ...workspaceHandlers({
        users: [...names('user'), 'bob'].map((name) => makeWorkspaceUser({ name })),
        limit: 30,
      }),
    );
    const { router } = renderApp(`${TAB}/users?q=USER1&page=2`);

    await screen.findByTestId('user-user10');
    expect(rows('workspace-users')).toEqual(names('user').filter((name) => name.startsWith('user1')));
    const filter = screen.getByTestId<HTMLInputElement>('workspace-users-filter');
    expect(filter.value).toBe('USER1');

    await userEvent.clear(filter);
    await userEvent.type(filter, 'bo');
    await screen.findByTestId('user-bob');
    expect(rows('workspace-users')).toEqual(['bob']);
    expect(router.state.location.search).toBe('?q=bo');

    await userEvent.type(filter, 'x');
    expect((await screen.findByTestId('workspace-users-empty')).textContent).toBe('Nothing matches “box”.');
  });

  it('keeps the groups’ page apart from the users’ (?groups-page=2)', async () => {
    server.use(
      ...workspaceHandlers({
        users: names('user').map((name) => makeWorkspaceUser({ name })),
        groups: names('group').map((name) => makeGroup({ name })),
        limit: 30,
      }),
    );
    renderApp(`${TAB}/users?groups-page=2`);

    await screen.findByTestId('group-group21');
    expect(rows('workspace-groups')).toEqual(['group21', 'group22', 'group23', 'group24', 'group25']);
    expect(rows('workspace-users')[0]).toBe('user01');
  });

  it('opens page 2 of the shares from ?page=2', async () => {
    server.use(...workspaceHandlers({ shares: names('share').map((name) => makeShare({ name })) }));
    renderApp(`${TAB}/samba?page=2`);

    await screen.findByTestId('share-share21');
    expect(rows('samba-shares')).toEqual(['share21', 'share22', 'share23', 'share24', 'share25']);
  });

  it('asks the activity for the page in ?page=', async () => {
    const skips: string[] = [];
    server.use(
      ...workspaceHandlers(),
      ...catalogueHandlers(),
      http.get(`/api/v1/activity/audit/${SERVICE_ID}`, ({ request }) => {
        const url = new URL(request.url);
        skips.push(url.searchParams.get('skip') ?? '');
        return HttpResponse.json({
          items: [makeEntry({ service_id: SERVICE_ID })],
          total: 120,
          skip: Number(url.searchParams.get('skip')),
          limit: 50,
        });
      }),
    );
    renderApp(`${TAB}/activity?page=2`);

    await waitFor(() => expect(skips).toContain('50'));
    expect(skips).not.toContain('0');
  });

  it('reads a page number that is not one as page 1', () => {
    expect([null, '', '0', '-1', '1.5', 'two', '3'].map(pageFromParam)).toEqual([1, 1, 1, 1, 1, 1, 3]);
  });
});
