// One service's lifecycle and settings (spec §7 "Services"): its node status, start, stop,
// restart, retrying its payment, its settings (GET/PUT /config) and renaming (PUT /{id}).
import {
  paymentSessionResponseSchema,
  serviceConfigSchema,
  serviceOverviewItemSchema,
  serviceStatusSchema,
  type ServiceConfigUpdate,
  type ServiceUpdate,
} from '@debesis/contract';
import { api } from '../api/client.ts';

const servicePath = (id: string) => `/api/v1/services/${encodeURIComponent(id)}`;

/** The owner's lifecycle controls of a running service (spec §4 "Service actions"). */
export const SERVICE_CONTROLS = ['start', 'stop', 'restart'] as const;
export type ServiceControl = (typeof SERVICE_CONTROLS)[number];

export const serviceLifecycleApi = {
  status: (id: string) => api.get(`${servicePath(id)}/status`, serviceStatusSchema),
  control: (id: string, control: ServiceControl) =>
    api.post(`${servicePath(id)}/${control}`, {}, serviceStatusSchema),
  /** A payment session for the service's failed or unpaid order: {session_id, url}. */
  retryPayment: (id: string) =>
    api.post(`${servicePath(id)}/retry-payment`, {}, paymentSessionResponseSchema),
  config: (id: string) => api.get(`${servicePath(id)}/config`, serviceConfigSchema),
  configure: (id: string, body: ServiceConfigUpdate) =>
    api.put(`${servicePath(id)}/config`, body, serviceConfigSchema),
  update: (id: string, body: ServiceUpdate) => api.put(servicePath(id), body, serviceOverviewItemSchema),
};
