// Issue 37: the services list and a service's overview say where its second copy is and how fresh
// it is, in each state the API gives, in English and Lithuanian; the list asks again as often as
// the copy syncs, so "in sync 12 seconds ago" never grows stale on screen.
import type { ServiceOverviewItem, ServiceReplica } from '@debesis/contract';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeUser, userHandler } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render-app.tsx';
import { server } from '../../test/server.ts';
import { SERVICE_ID } from '../../test/service-fixtures.ts';
import { makeOverviewItem, workspaceHandlers } from '../../test/workspace-fixtures.ts';
import { APPLY_POLL_MS } from '../../workspace/workspace-resource.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { pollOverview, REPLICA_POLL_MS } from './service-parts.tsx';
import { signIn } from '../../test/sign-in.ts';
import { loadServicePages } from '../../test/service-pages.ts';

const SLOW = 20_000;
const agoIso = (ms: number) => new Date(Date.now() - ms).toISOString();

/** One service in each replica state; the times are taken when the API answers. */
function services(): ServiceOverviewItem[] {
  const replica = (id: string, value: ServiceReplica) => makeOverviewItem({ id, replica: value });
  return [
    replica('none', { state: 'none', node: null, last_in_sync_at: null }),
    replica('syncing', { state: 'syncing', node: 'node-b', last_in_sync_at: null }),
    replica('in_sync', { state: 'in_sync', node: 'node-b', last_in_sync_at: agoIso(12_000) }),
    replica('behind', { state: 'behind', node: 'node-c', last_in_sync_at: agoIso(5 * 60_000 + 30_000) }),
    replica('never', { state: 'behind', node: null, last_in_sync_at: null }),
  ];
}

const note = (id: string) => screen.queryByTestId(`service-replica-${id}`);

loadServicePages(
  () => import('../ServicesPage.tsx'),
  () => import('./overview/ServiceOverviewTab.tsx'),
);

beforeEach(() =>
  signIn({
    handlers: [http.get('/api/v1/services/overview', () => HttpResponse.json({ services: services() }))],
  }),
);

describe('the second copy on the services list', () => {
  it(
    'says nothing without one, where it is and how fresh, and warns once it is behind',
    async () => {
      renderApp('/dashboard/services');
      const inSync = await screen.findByTestId('service-replica-in_sync');
      expect(inSync.textContent).toMatch(/^Second copy on node-b: in sync 1[2-4] seconds ago$/);
      // The time is a <time> with the full date and time on hover.
      const time = inSync.querySelector('time');
      const at = time?.getAttribute('dateTime') ?? '';
      expect(time?.getAttribute('title')).toBe(formatDateTime(new Date(at), 'en'));
      expect(inSync.getAttribute('data-replica-state')).toBe('in_sync');
      expect(inSync.className).not.toContain('replica-note--behind');

      expect(screen.queryByTestId('service-row-none')).not.toBeNull();
      expect(note('none')).toBeNull();
      expect(note('syncing')?.textContent).toBe('Second copy on node-b: being made');
      expect(note('syncing')?.querySelector('time')).toBeNull();

      const behind = note('behind');
      expect(behind?.textContent).toBe('Second copy on node-c: behind, last in sync 5 minutes ago');
      expect(behind?.className).toContain('replica-note--behind');
      expect(behind?.className).not.toContain('text-muted');
      expect(note('never')?.textContent).toBe('Second copy on another node: behind, not in sync yet');
    },
    SLOW,
  );

  it(
    'counts the seconds on while the page stays open',
    async () => {
      renderApp('/dashboard/services');
      const inSync = await screen.findByTestId('service-replica-in_sync');
      const first = inSync.textContent;
      await waitFor(() => expect(inSync.textContent).not.toBe(first), { timeout: 4000 });
      expect(inSync.textContent).toMatch(/in sync 1[3-9] seconds ago$/);
    },
    SLOW,
  );

  it(
    'says it in Lithuanian',
    async () => {
      server.use(userHandler(makeUser({ language: 'lt' })));
      renderApp('/dashboard/services');
      await waitFor(() =>
        expect(note('in_sync')?.textContent).toMatch(
          /^Antroji kopija mazge node-b: sinchronizuota prieš 1[2-4] sekundžių$/,
        ),
      );
      expect(note('syncing')?.textContent).toBe('Antroji kopija mazge node-b: kuriama');
      expect(note('behind')?.textContent).toBe(
        'Antroji kopija mazge node-c: atsilieka, paskutinį kartą sinchronizuota prieš 5 minutes',
      );
      expect(note('never')?.textContent).toBe('Antroji kopija kitame mazge: atsilieka, dar nesinchronizuota');
      const time = note('in_sync')?.querySelector('time');
      expect(time?.getAttribute('title')).toBe(
        formatDateTime(new Date(time?.getAttribute('dateTime') ?? ''), 'lt'),
      );
      expect(note('none')).toBeNull();
    },
    SLOW,
  );
});

describe('the second copy on the service overview', () => {
  it(
    'is one line under the facts, in the same words',
    async () => {
      server.use(
        ...workspaceHandlers({
          service: makeOverviewItem({
            replica: { state: 'behind', node: 'node-c', last_in_sync_at: agoIso(2 * 60 * 60_000) },
          }),
        }),
      );
      renderApp(`/dashboard/services/${SERVICE_ID}`);
      const line = await screen.findByTestId('service-replica');
      expect(line.textContent).toBe('Second copy on node-c: behind, last in sync 2 hours ago');
      expect(line.getAttribute('data-replica-state')).toBe('behind');
    },
    SLOW,
  );

  it(
    'shows nothing for a service without one',
    async () => {
      server.use(...workspaceHandlers());
      renderApp(`/dashboard/services/${SERVICE_ID}`);
      await screen.findByTestId('service-facts');
      expect(screen.queryByTestId('service-replica')).toBeNull();
    },
    SLOW,
  );
});

describe('how often the overview is asked again', () => {
  it('while changing as before, else as often as a shown copy syncs, else never', () => {
    const settled = makeOverviewItem();
    const withCopy = makeOverviewItem({
      replica: { state: 'in_sync', node: 'node-b', last_in_sync_at: agoIso(1_000) },
    });
    const applying = makeOverviewItem({ apply_status: 'applying' });
    expect(pollOverview([settled])).toBe(false);
    expect(pollOverview([settled, withCopy])).toBe(REPLICA_POLL_MS);
    expect(REPLICA_POLL_MS).toBe(30_000);
    expect(pollOverview([withCopy, applying])).toBe(APPLY_POLL_MS);
  });
});
