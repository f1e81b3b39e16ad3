// What the service detail page hands its tabs: the service as the overview lists it.
import type { ServiceOverviewItem } from '@debesis/contract';
import { useOutletContext } from 'react-router';

export interface ServiceDetailContext {
  service: ServiceOverviewItem;
}

export function useServiceDetail(): ServiceDetailContext {
  return useOutletContext<ServiceDetailContext>();
}

export const serviceDetailPath = (id: string, tab = '') =>
  `/dashboard/services/${encodeURIComponent(id)}${tab ? `/${tab}` : ''}`;
