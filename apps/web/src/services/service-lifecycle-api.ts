// One service's lifecycle and settings (spec §7 "Services"): its node status, start, stop,
// restart, retrying its payment, cancelling and terminating (POST /{id}/action), its settings
// (GET/PUT /config) and renaming (PUT /{id}).
import {
  paymentSessionResponseSchema,
  serviceActionResponseSchema,
  serviceConfigSchema,
  serviceOverviewItemSchema,
  serviceStatusSchema,
  type ServiceAction,
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
  /** Ending the service: cancel (data kept, then deleted) or terminate (data deleted now). */
  end: (id: string, action: Extract<ServiceAction, 'cancel' | 'terminate'>) =>
    api.post(`${servicePath(id)}/action`, { action }, serviceActionResponseSchema),
  config: (id: string) => api.get(`${servicePath(id)}/config`, serviceConfigSchema),
  configure: (id: string, body: ServiceConfigUpdate) =>
    api.put(`${servicePath(id)}/config`, body, serviceConfigSchema),
  /** Automatic renewal with the kept card, on or off (PATCH /services/{id}). */
  setAutoRenew: (id: string, autoRenew: boolean) =>
    api.patch(servicePath(id), { auto_renew: autoRenew }, serviceConfigSchema),
  update: (id: string, body: ServiceUpdate) => api.put(servicePath(id), body, serviceOverviewItemSchema),
};
