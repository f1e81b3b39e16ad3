// The pattern every workspace tab shares (users, groups, Samba shares, VPN, NFS, FTP and the rest):
// a list that asks again every 2 s while anything in it is still being applied by the node, and
// changes that refresh everything about the service when they succeed (forms put the server's
// field errors next to their fields with forms/use-contract-form.ts).
import type { ResourceApplyStatus } from '@debesis/contract';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../api/client.ts';
import { SERVICES_QUERY_KEY } from '../services/services-api.ts';

/** How often a list is asked again while the node applies a change to it. */
export const APPLY_POLL_MS = 2_000;

/** A query's refetchInterval: every APPLY_POLL_MS while any item is applying, else never. */
export function whileApplying(items: readonly Applied[] | undefined): number | false {
  return items?.some((item) => item.apply_status === 'applying') ? APPLY_POLL_MS : false;
}

type Applied = { apply_status: ResourceApplyStatus };

/**
 * A workspace query (a list, a server's status) asked again while the node applies a change to
 * what `applied` picks from its answer: a list's items, or the status itself.
 */
export function useAppliedQuery<Data>(
  queryKey: QueryKey,
  queryFn: () => Promise<Data>,
  applied: (data: Data) => readonly Applied[],
) {
  return useQuery({
    queryKey,
    queryFn,
    refetchInterval: (query) => whileApplying(query.state.data && applied(query.state.data)),
  });
}

/** A server's status (Samba, NFS, FTP, the service's own), asked again until the node has applied the latest change. */
export function useAppliedStatus<Data extends Applied>(queryKey: QueryKey, queryFn: () => Promise<Data>) {
  return useAppliedQuery(queryKey, queryFn, (status) => [status]);
}

/**
 * A change to a service's workspace. On success everything cached about services is asked again
 * (the changed list, the lists that mention it, the overview's counts), then `onDone` runs.
 */
export function useWorkspaceMutation<Variables, Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  onDone?: (result: Result, variables: Variables) => void,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (result, variables) => {
      void client.invalidateQueries({ queryKey: SERVICES_QUERY_KEY });
      onDone?.(result, variables);
    },
  });
}

/** The spec's "Failed to …" message of an operation, followed by the server's own words. */
export function operationErrorText(error: unknown, failure: string): string {
  return isApiError(error) && error.message && error.message !== failure
    ? `${failure}: ${error.message}`
    : failure;
}
