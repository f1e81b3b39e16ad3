// /dashboard/services/{id}/ftp (spec §2 "ftp": FTP status and per-user permissions): the
// workspace's FTP and SFTP servers (the host and ports to copy, whether the node serves them, the
// SFTP command line) and every service user with their FTP/SFTP access: a toggle to let them sign
// in, read and write or read only. Each change shows "Applying…" until the node has it.
import type {
  FtpServerStatus,
  FtpStatus,
  FtpUser,
  FtpUserPermissions,
  FtpUsersResponse,
} from '@debesis/contract';
import { FTP_USER_PERMISSIONS } from '@debesis/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApplyStatusBadge } from '../../../components/ApplyStatusBadge.tsx';
import { ftpApi, useFtpStatus, useFtpUsers } from '../../../workspace/ftp-api.ts';
import { workspaceKeys } from '../../../workspace/workspace-keys.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { DaemonStatusCard, type DaemonReport } from '../kit/DaemonStatusCard.tsx';
import { OperationError } from '../resource-parts.tsx';
import { useServiceTab } from '../use-service-tab.ts';
import './ftp.css';
import { CopyValue } from '../kit/CopyValue.tsx';
import '../kit/data-table.css';

type Translate = TFunction<['ftpTab', 'workspace']>;

/** A server's report for the card: serving only when it runs. */
function reportOf(status: FtpStatus, server: FtpServerStatus): DaemonReport {
  return {
    placed: status.placed,
    live: server.live === null ? null : server.serving === true,
    reason: server.reason,
    apply_status: status.apply_status,
  };
}

/** Off, or nobody may sign in: the server does not run, on purpose (the card's "not needed"). */
function notNeeded(status: FtpStatus, server: FtpServerStatus, t: Translate): string | null {
  return !server.enabled ? t('ftp.off') : status.users === 0 ? t('ftp.nobody') : null;
}

export function ServiceFtpTab() {
  const { t } = useTranslation(['ftpTab', 'workspace']);
  const { service } = useServiceTab('ftp');
  const status = useFtpStatus(service.id);
  const data = status.data;
  // Where clients connect, as the API says: a NAT plan's VPN-side address already.
  const host = data?.address ?? null;
  const exampleUser = useFtpUsers(service.id).data?.users.find((user) => user.enabled)?.name ?? 'user';
  const card = (server: (status: FtpStatus) => FtpServerStatus) => ({
    data: data && reportOf(data, server(data)),
    isPending: status.isPending,
    isError: status.isError,
  });
  const notServing = (reason: string | null) =>
    reason ? t('ftp.notLiveReason', { reason }) : t('ftp.notLive');
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('ftp.serverTitle')}
        name="FTP"
        status={card((s) => s.ftp)}
        words={{
          serving: () => t('ftp.live'),
          notServing,
          waiting: () => t('ftp.waitingForNode'),
          notPlaced: () => t('ftp.notPlaced'),
        }}
        address={{ label: t('ftp.host'), value: host, copy: true, testId: 'ftp-host' }}
        facts={
          data
            ? [
                {
                  label: t('ftp.port'),
                  value: <CopyValue value={String(data.ftp.port)} what={t('ftp.port')} testId="ftp-port" />,
                },
                {
                  label: t('ftp.mode'),
                  value: t('ftp.modePassive', { min: data.passive_port_min, max: data.passive_port_max }),
                  testId: 'ftp-mode',
                },
                {
                  label: t('ftp.tls'),
                  value: data.tls_required ? t('ftp.tlsRequired') : t('ftp.tlsOptional'),
                  testId: 'ftp-tls',
                },
                {
                  label: t('ftp.usersCount'),
                  value: t('ftp.usersCountValue', { count: data.users, total: data.users_total }),
                  testId: 'ftp-users-count',
                },
                { label: t('ftp.sessionsCount'), value: String(data.sessions), testId: 'ftp-sessions-count' },
              ]
            : []
        }
        reload={() => ftpApi.reload(service.id)}
        testId="ftp"
        notNeeded={data && notNeeded(data, data.ftp, t)}
      />
      <DaemonStatusCard
        title={t('ftp.sftpTitle')}
        name="SFTP"
        status={card((s) => s.sftp)}
        words={{
          serving: () => t('ftp.sftpLive'),
          notServing,
          waiting: () => t('ftp.waitingForNode'),
          notPlaced: () => t('ftp.notPlaced'),
        }}
        facts={
          data && host
            ? [
                {
                  label: t('ftp.port'),
                  value: <CopyValue value={String(data.sftp.port)} what={t('ftp.port')} testId="sftp-port" />,
                },
                {
                  label: t('ftp.connect'),
                  value: (
                    <CopyValue
                      value={`sftp -P ${data.sftp.port} ${exampleUser}@${host}`}
                      what={t('ftp.connect')}
                      testId="sftp-command"
                    />
                  ),
                },
              ]
            : []
        }
        testId="sftp"
        notNeeded={data && notNeeded(data, data.sftp, t)}
        // One host for both servers: the FTP card above says who can reach it.
        reachNotes={false}
      />
      <FtpUsersSection serviceId={service.id} />
    </div>
  );
}

function FtpUsersSection({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation(['ftpTab', 'workspace']);
  const users = useFtpUsers(serviceId);
  const list = users.data?.users ?? [];
  return (
    <section className="card resource-section" aria-labelledby="ftp-users-title" data-testid="ftp-users">
      <div className="resource-section__head">
        <h2 id="ftp-users-title" className="resource-section__title">
          {t('ftp.usersTitle')}
        </h2>
      </div>
      <p className="text-muted">{t('ftp.usersLead')}</p>
      {users.isPending && (
        <p className="text-muted" role="status">
          {t('workspace:resource.loading')}
        </p>
      )}
      {users.isError && (
        <OperationError error={users.error} failure={t('ftp.loadFailed')} testId="ftp-users-error" />
      )}
      {users.isSuccess && list.length === 0 && (
        <p className="text-muted" data-testid="ftp-users-empty">
          {t('ftp.usersEmpty')}
        </p>
      )}
      {list.length > 0 && (
        <div className="data-table__scroll">
          <table className="data-table" data-testid="ftp-users-table">
            <thead>
              <tr>
                <th scope="col">{t('ftp.user')}</th>
                <th scope="col">{t('ftp.access')}</th>
                <th scope="col">{t('ftp.rights')}</th>
                <th scope="col">{t('ftp.sessions')}</th>
                <th scope="col">{t('ftp.state')}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((user) => (
                <FtpUserRow key={user.name} serviceId={serviceId} user={user} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const permissionLabel = (permissions: FtpUserPermissions, t: Translate) =>
  permissions === 'read_write' ? t('ftp.readWrite') : t('ftp.readOnly');

function FtpUserRow({ serviceId, user }: { serviceId: string; user: FtpUser }) {
  const { t } = useTranslation(['ftpTab', 'workspace']);
  const client = useQueryClient();
  // The server's answer shows at once: the list asked again arrives a moment later.
  const answered = (changed: FtpUser) =>
    client.setQueryData<FtpUsersResponse>(
      workspaceKeys.ftpUsers(serviceId),
      (list) => list && { users: list.users.map((entry) => (entry.name === changed.name ? changed : entry)) },
    );
  const enable = useWorkspaceMutation(
    (enabled: boolean) => ftpApi.setEnabled(serviceId, user.name, enabled),
    answered,
  );
  const rights = useWorkspaceMutation(
    (permissions: FtpUserPermissions) => ftpApi.setPermissions(serviceId, user.name, permissions),
    answered,
  );
  const busy = enable.isPending || rights.isPending;
  const id = `ftp-user-${user.name}`;
  return (
    <>
      <tr data-testid={id}>
        <th scope="row">
          {user.name}
          {!user.active && <span className="badge">{t('ftp.inactive')}</span>}
        </th>
        <td>
          <input
            type="checkbox"
            role="switch"
            checked={enable.isPending ? enable.variables : user.enabled}
            disabled={busy}
            aria-label={t('ftp.enabledLabel', { name: user.name })}
            data-testid={`${id}-enabled`}
            onChange={(event) => enable.mutate(event.target.checked)}
          />
        </td>
        <td>
          <select
            className="select"
            value={rights.isPending ? rights.variables : user.permissions}
            disabled={busy}
            aria-label={t('ftp.rightsLabel', { name: user.name })}
            data-testid={`${id}-permissions`}
            onChange={(event) => rights.mutate(event.target.value as FtpUserPermissions)}
          >
            {FTP_USER_PERMISSIONS.map((permissions) => (
              <option key={permissions} value={permissions}>
                {permissionLabel(permissions, t)}
              </option>
            ))}
          </select>
        </td>
        <td data-testid={`${id}-sessions`}>{user.sessions}</td>
        <td>
          {busy ? (
            <span className="text-muted" role="status" data-testid={`${id}-busy`}>
              {t('ftp.applying')}
            </span>
          ) : (
            <ApplyStatusBadge status={user.apply_status} error={user.apply_error} testId={`${id}-apply`} />
          )}
        </td>
      </tr>
      {(enable.isError || rights.isError) && (
        <tr>
          <td colSpan={5}>
            {enable.isError && (
              <OperationError
                error={enable.error}
                failure={
                  enable.variables
                    ? t('ftp.enableFailed', { name: user.name })
                    : t('ftp.disableFailed', { name: user.name })
                }
                testId={`${id}-error`}
              />
            )}
            {rights.isError && (
              <OperationError
                error={rights.error}
                failure={t('ftp.permissionsFailed', { name: user.name })}
                testId={`${id}-error`}
              />
            )}
          </td>
        </tr>
      )}
    </>
  );
}
