// A workspace's share links (spec §7 "Share links", base /api/v1/shares/{serviceId}): every call
// the share-links tab makes, typed by the contract (packages/contract/src/features/share-links/share-links.ts). A
// link's downloads and state change with its visitors, so the list is asked again every 30 s
// while the tab is open.
import {
  shareLinkAccessLogResponseSchema,
  shareLinkSchema,
  shareLinksResponseSchema,
  storageListingSchema,
  type CreateShareLinkRequest,
  type ShareLinkAccessResult,
} from '@debesis/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, noContent } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/shares/${segment(serviceId)}`;
const linkPath = (serviceId: string, id: string) => `${base(serviceId)}/shares/${segment(id)}`;

export const SHARE_LINKS_POLL_MS = 30_000;
export const ACCESS_LOG_PAGE_SIZE = 20;

export interface AccessLogFilter {
  result: ShareLinkAccessResult | '';
  ip: string;
  page: number;
}

export const shareLinksApi = {
  list: (serviceId: string) => api.get(`${base(serviceId)}/shares`, shareLinksResponseSchema),
  create: (serviceId: string, body: CreateShareLinkRequest) =>
    api.post(`${base(serviceId)}/shares`, body, shareLinkSchema),
  revoke: (serviceId: string, id: string) =>
    api.post(`${linkPath(serviceId, id)}/revoke`, {}, shareLinkSchema),
  remove: (serviceId: string, id: string) => api.delete(linkPath(serviceId, id), noContent),
  accessLog: (serviceId: string, id: string, filter: AccessLogFilter) =>
    api.get(`${linkPath(serviceId, id)}/access-logs`, shareLinkAccessLogResponseSchema, {
      params: {
        result: filter.result || undefined,
        ip: filter.ip.trim() || undefined,
        skip: filter.page * ACCESS_LOG_PAGE_SIZE,
        limit: ACCESS_LOG_PAGE_SIZE,
      },
    }),
  storage: (serviceId: string, path: string) =>
    api.get(`${base(serviceId)}/storage`, storageListingSchema, { params: { path } }),
};

export function useShareLinks(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.shareLinks(serviceId),
    queryFn: () => shareLinksApi.list(serviceId),
    refetchInterval: SHARE_LINKS_POLL_MS,
  });
}

export function useShareLinkAccessLog(serviceId: string, id: string, filter: AccessLogFilter) {
  return useQuery({
    queryKey: [...workspaceKeys.shareLinks(serviceId), 'access-log', id, filter] as const,
    queryFn: () => shareLinksApi.accessLog(serviceId, id, filter),
    placeholderData: keepPreviousData,
  });
}

/** One folder of the storage, for the custom-path picker. */
export function useStorageFolder(serviceId: string, path: string) {
  return useQuery({
    queryKey: [...workspaceKeys.all(serviceId), 'storage', path] as const,
    queryFn: () => shareLinksApi.storage(serviceId, path),
  });
}
