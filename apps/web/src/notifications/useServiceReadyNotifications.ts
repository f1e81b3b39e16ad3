// Tells the customer, by a browser notification, when a workspace they are waiting for becomes
// ready: any page that asks for the services overview (the list polls it while one is being set
// up) feeds this watcher, which compares each answer with the one before.
import type { ServiceStatus, ServicesOverview } from '@debesis/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SERVICES_QUERY_KEY } from '../services/services-api.ts';
import { notifyInBrowser } from './browser-notifications.ts';

type Status = ServiceStatus;
const WAITING = new Set<Status>(['processing', 'resourcePending']);
const OVERVIEW_KEY = JSON.stringify([...SERVICES_QUERY_KEY, 'overview']);

function statuses(data: ServicesOverview | undefined): Map<string, Status> {
  return new Map((data?.services ?? []).map((service) => [service.id, service.status]));
}

export function useServiceReadyNotifications(): void {
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  useEffect(() => {
    const cache = queryClient.getQueryCache();
    let before: Map<string, Status> | null = null;
    return cache.subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      if (JSON.stringify(event.query.queryKey) !== OVERVIEW_KEY) return;
      const now = statuses(event.query.state.data as ServicesOverview | undefined);
      const data = event.query.state.data as ServicesOverview | undefined;
      for (const service of data?.services ?? []) {
        const was = before?.get(service.id);
        if (was && WAITING.has(was) && service.status === 'active') {
          notifyInBrowser(
            t('browserNotifications.serviceReadyTitle'),
            t('browserNotifications.serviceReadyBody', { name: service.name }),
            `service-ready:${service.id}`,
          );
        }
      }
      before = now;
    });
  }, [queryClient, t]);
}
