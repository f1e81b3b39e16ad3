// The overview's usage (issue 13): disk and users as bars that fill with the figure, in words too.
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/render-app.tsx';
import { server } from '../../../test/server.ts';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';
import { makeOverviewItem, workspaceHandlers } from '../../../test/workspace-fixtures.ts';
import { signIn } from '../../../test/sign-in.ts';
import { loadServicePages } from '../../../test/service-pages.ts';

loadServicePages(() => import('./ServiceOverviewTab.tsx'));

beforeEach(() => signIn());

const GB = 1024 ** 3;

describe('service overview: usage', () => {
  it('shows disk and users as bars filled to their share of the plan', async () => {
    const service = makeOverviewItem({
      disk_space: 50,
      disk_usage: 45 * GB,
      users_active: 2,
      users_total: 5,
    });
    server.use(...workspaceHandlers({ service }));
    renderApp(`/dashboard/services/${SERVICE_ID}`);

    const facts = await screen.findByTestId('service-facts');
    const disk = within(facts).getByRole('meter', { name: 'Disk usage' });
    expect(disk.getAttribute('aria-valuetext')).toBe('45 GB of 50 GB');
    expect(disk.getAttribute('aria-valuenow')).toBe(String(45 * GB));
    expect(disk.getAttribute('aria-valuemax')).toBe(String(50 * GB));
    expect(disk.dataset.tone).toBe('full');
    expect((disk.firstElementChild as HTMLElement).style.width).toBe('90%');

    const users = within(facts).getByRole('meter', { name: 'Users (active/total)' });
    expect(users.getAttribute('aria-valuetext')).toBe('2 / 5');
    expect(users.dataset.tone).toBe('ok');
    expect((users.firstElementChild as HTMLElement).style.width).toBe('40%');
  });

  it('shows no disk bar before the node has measured it', async () => {
    server.use(...workspaceHandlers({ service: makeOverviewItem({ disk_usage: null }) }));
    renderApp(`/dashboard/services/${SERVICE_ID}`);
    const facts = await screen.findByTestId('service-facts');
    expect(within(facts).getByTestId('service-fact-disk').textContent).toBe('Not measured yet (of 50 GB)');
    expect(within(facts).queryByRole('meter', { name: 'Disk usage' })).toBeNull();
  });
});
