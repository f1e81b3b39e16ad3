// /dashboard/services/{id}/nfs (spec §2 "nfs": NFS exports and clients): the workspace's NFS
// server (where clients mount, whether the node serves it, reload and sync), its exports (each a
// folder of the storage for one client rule, read-write or read-only, written as a user of the
// service), the clients the server knows, and what is known per export.
//
// Disconnect (after confirming): the node refuses the client on every export for a while, longer
// than its NFS lease; it may come back after that, so the tab says until when and how to keep it
// out for good (change the export's client).
import { useState } from 'react';
import type { NfsClientsResponse, NfsDisconnectResponse, NfsStats, NfsStatus } from '@debesis/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { useWorkspaceUsers } from '../../../workspace/directory-api.ts';
import {
  nfsApi,
  useNfsClients,
  useNfsExports,
  useNfsStats,
  useNfsStatus,
} from '../../../workspace/nfs-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { DaemonStatusCard, type DaemonReport } from '../kit/DaemonStatusCard.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { Facts, ResourceCrud } from '../kit/ResourceCrud.tsx';
import { nfsExportForm } from './nfs-export-form.ts';
import { ConfirmAction, OperationError, RowAction } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import { BusyButton } from '../../../components/form/BusyButton.tsx';

type Translate = TFunction<['nfsTab', 'workspace']>;

/** Serving only when the server runs (with no export there is none: the card says not needed). */
function reportOf(status: NfsStatus): DaemonReport {
  return {
    placed: status.placed,
    live: status.live === null ? null : status.serving === true,
    reason: status.reason,
    apply_status: status.apply_status,
  };
}

export function ServiceNfsTab() {
  const { t } = useTranslation(['nfsTab', 'workspace']);
  const { service } = useServiceTab('nfs');
  const status = useNfsStatus(service.id);
  const sync = useWorkspaceMutation(() => nfsApi.sync(service.id));
  const data = status.data;
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('nfs.serverTitle')}
        name="NFS"
        status={{ data: data && reportOf(data), isPending: status.isPending, isError: status.isError }}
        words={{
          serving: () => t('nfs.live'),
          notServing: (reason) => (reason ? t('nfs.notLiveReason', { reason }) : t('nfs.notLive')),
          notPlaced: () => t('nfs.notPlaced'),
        }}
        address={{
          label: t('nfs.address'),
          value: data?.address ?? null,
          shown: (host) => `${host}:${data?.port ?? ''}`,
          testId: 'nfs-address',
        }}
        facts={[
          { label: t('nfs.protocol'), value: t('nfs.protocolValue') },
          ...(data
            ? [
                {
                  label: t('nfs.exportsCount'),
                  value: t('nfs.exportsOf', { count: data.exports, limit: data.limit }),
                  testId: 'nfs-exports-count',
                },
              ]
            : []),
        ]}
        actions={
          <BusyButton
            busy={sync.isPending}
            label={t('nfs.sync')}
            busyLabel={t('nfs.syncing')}
            type="button"
            className="btn btn--secondary"
            disabled={!data?.placed}
            onClick={() => sync.mutate(undefined)}
            testId="nfs-sync"
          />
        }
        notices={
          <>
            {sync.isSuccess && (
              <FormAlert tone="success" testId="nfs-sync-done">
                {t('nfs.synced')}
              </FormAlert>
            )}
            {sync.isError && (
              <OperationError error={sync.error} failure={t('nfs.syncFailed')} testId="nfs-sync-error" />
            )}
          </>
        }
        reload={() => nfsApi.reload(service.id)}
        testId="nfs"
        notNeeded={data && (data.exports === 0 ? t('nfs.notNeeded') : null)}
      />
      <ExportsSection serviceId={service.id} />
      <ClientsSection serviceId={service.id} clients={useNfsClients(service.id)} />
      <StatsSection stats={useNfsStats(service.id)} />
    </div>
  );
}

function ExportsSection({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['nfsTab', 'workspace']);
  const exports = useNfsExports(serviceId);
  const users = useWorkspaceUsers(serviceId);
  return (
    <ResourceCrud
      section={{
        title: t('nfs.exportsTitle'),
        lead: t('nfs.exportsLead'),
        addLabel: t('nfs.add'),
        notice: users.isError && <OperationError error={users.error} failure={t('nfs.usersLoadFailed')} />,
        loadFailed: t('nfs.loadFailed'),
        emptyText: t('nfs.empty'),
        testId: 'nfs-exports',
      }}
      load={exports}
      items={exports.data?.exports ?? []}
      nameOf={(entry) => entry.path}
      row="nfs-export"
      // The form lists the service's users to choose an owner from: wait for them.
      ready={exports.isSuccess && users.isSuccess}
      badges={(entry) => (
        <span
          className={entry.access === 'read_write' ? 'badge badge--info' : 'badge'}
          data-testid={`nfs-export-${entry.path}-access`}
        >
          {t(`nfs.access_${entry.access}`)}
        </span>
      )}
      details={(entry) => (
        <Facts
          facts={[
            entry.mount && {
              label: t('nfs.mount'),
              value: <code data-testid={`nfs-export-${entry.path}-mount`}>{entry.mount}</code>,
            },
            {
              label: t('nfs.client'),
              value: <code>{entry.client}</code>,
              testId: `nfs-export-${entry.path}-client`,
            },
            {
              label: t('nfs.owner'),
              value: entry.owner ?? t('nfs.ownerNone'),
              testId: `nfs-export-${entry.path}-owner`,
            },
            entry.description && { label: t('nfs.description'), value: entry.description },
          ]}
        />
      )}
      form={nfsExportForm(serviceId, users.data?.users ?? [], t)}
      remove={{
        title: (name) => t('nfs.deleteTitle', { name }),
        body: t('nfs.deleteBody'),
        failure: t('nfs.deleteFailed'),
        run: (name) => nfsApi.deleteExport(serviceId, name),
      }}
    />
  );
}

function ClientsSection({
  serviceId,
  clients,
}: {
  serviceId: string;
  clients: UseQueryResult<NfsClientsResponse>;
}) {
  const { t, i18n } = useTranslation(['nfsTab', 'workspace']);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [done, setDone] = useState<NfsDisconnectResponse | null>(null);
  return (
    <ReportCard
      id="nfs-clients"
      title={t('nfs.clientsTitle')}
      lead={t('nfs.clientsLead')}
      query={clients}
      failure={t('nfs.clientsLoadFailed')}
    >
      {(data) => (
        <>
          {done && (
            <FormAlert tone="success" testId="nfs-client-disconnected">
              {t('nfs.disconnected', {
                address: done.address,
                until: new Date(done.blocked_until).toLocaleTimeString(i18n.language),
              })}
            </FormAlert>
          )}
          {confirming && (
            <ConfirmAction
              title={t('nfs.disconnectTitle', { address: confirming })}
              body={t('nfs.disconnectBody')}
              confirmLabel={t('nfs.disconnect')}
              busyLabel={t('nfs.disconnecting')}
              failure={t('nfs.disconnectFailed')}
              run={() => nfsApi.disconnect(serviceId, confirming)}
              onDone={setDone}
              onClose={() => setConfirming(null)}
              testId="nfs-disconnect-dialog"
            />
          )}
          {clientsTable(data, t, (address) => {
            setDone(null);
            setConfirming(address);
          })}
        </>
      )}
    </ReportCard>
  );
}

function clientsTable(data: NfsClientsResponse, t: Translate, disconnect: (address: string) => void) {
  // nfs-ganesha never knows which export a client mounted (contract NfsClient.mount_point): the
  // column is there only when the server reports one, and a client it did not report says so.
  const mountPoints = data.clients.some((client) => client.mount_point !== null);
  return (
    <DataTable
      label={t('nfs.clientsTitle')}
      testId="nfs-clients-table"
      empty={{
        text: data.reported_at ? t('nfs.clientsEmpty') : t('nfs.clientsNotReported'),
        testId: 'nfs-clients-empty',
      }}
      rows={data.clients}
      rowKey={(client) => `${client.address}-${client.client_name}`}
      rowData={(client) => ({ 'data-testid': `nfs-client-${client.address}` })}
      columns={[
        { title: t('nfs.clientAddress'), cell: (client) => <code>{client.address}</code> },
        { title: t('nfs.version'), cell: (client) => `NFSv${client.version}` },
        {
          title: t('nfs.state'),
          cell: (client) => (
            <span className={client.connected ? 'badge badge--success' : 'badge'}>
              {client.connected ? t('nfs.connected') : t('nfs.idle')}
            </span>
          ),
        },
        { title: t('nfs.clientName'), cell: (client) => client.client_name },
        mountPoints && {
          title: t('nfs.mountPoint'),
          data: (client) => ({ 'data-testid': `nfs-client-${client.address}-mount-point` }),
          cell: (client) =>
            client.mount_point ?? <span className="text-muted">{t('nfs.mountPointUnknown')}</span>,
        },
        {
          title: t('nfs.allowedExports'),
          cell: (client) => (client.exports.length > 0 ? client.exports.join(', ') : t('nfs.none')),
        },
        {
          title: t('nfs.actions'),
          hideTitle: true,
          cell: (client) => (
            <RowAction
              label={t('nfs.disconnect')}
              target={client.address}
              onClick={() => disconnect(client.address)}
              testId={`nfs-client-${client.address}-disconnect`}
              danger
            />
          ),
        },
      ]}
    />
  );
}

function StatsSection({ stats }: { stats: UseQueryResult<NfsStats> }) {
  const { t, i18n } = useTranslation(['nfsTab', 'workspace']);
  const shown = (value: number | null, format: (value: number) => string) =>
    value === null ? <span className="text-muted">{t('nfs.notReported')}</span> : format(value);
  const number = (value: number | null) => shown(value, (known) => known.toLocaleString(i18n.language));
  const bytes = (value: number | null) => shown(value, (known) => formatBytes(known, i18n.language));
  return (
    <ReportCard
      id="nfs-stats"
      title={t('nfs.statsTitle')}
      lead={t('nfs.statsLead')}
      query={stats}
      failure={t('nfs.statsLoadFailed')}
    >
      {(data) => (
        <>
          {data.counters === 'unavailable' && (
            <p className="text-muted" data-testid="nfs-stats-counters">
              {t('nfs.countersUnavailable')}
            </p>
          )}
          <DataTable
            label={t('nfs.statsTitle')}
            testId="nfs-stats-table"
            empty={{ text: t('nfs.empty') }}
            rows={data.exports}
            rowKey={(entry) => entry.path}
            rowData={(entry) => ({ 'data-testid': `nfs-stats-${entry.path}` })}
            columns={[
              { title: t('nfs.path'), cell: (entry) => <code>{entry.path}</code> },
              { title: t('nfs.client'), cell: (entry) => <code>{entry.client}</code> },
              {
                title: t('nfs.knownClients'),
                numeric: true,
                cell: (entry) => (entry.clients === null ? t('nfs.byHostname') : number(entry.clients)),
              },
              {
                title: t('nfs.connectedClients'),
                numeric: true,
                cell: (entry) => (entry.connected === null ? t('nfs.byHostname') : number(entry.connected)),
              },
              { title: t('nfs.operations'), numeric: true, cell: (entry) => number(entry.operations) },
              { title: t('nfs.bytesRead'), numeric: true, cell: (entry) => bytes(entry.bytes_read) },
              { title: t('nfs.bytesWritten'), numeric: true, cell: (entry) => bytes(entry.bytes_written) },
            ]}
          />
        </>
      )}
    </ReportCard>
  );
}
