// A service's backup clients (spec §3 "Backup client", §4; contract backup-clients.ts): the
// customer's own machines that push restic backups into the workspace through its VPN, each with
// whether it is connected, online or pushing, its last push, how many backups it keeps and what
// they take; its VPN config to download, Disconnect (its backups stay) and Delete (its backups go
// too), both after a question. A client is added by name, as many as the plan has users; its
// password comes back once, with the set-up steps around it, and is forgotten when that panel
// closes: each client keeps the same steps behind a disclosure, the password a placeholder. The
// list is asked again every 15 s (backups-api.ts), since the machines connect and push by
// themselves.
import type { BackupClient, BackupClientsResponse, CreateBackupClientRequest } from '@debesis/contract';
import { createBackupClientRequestSchema } from '@debesis/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useContractForm } from '../../../forms/use-contract-form.ts';
import { backupsApi, downloadBackupClientConfig, useBackupClients } from '../../../workspace/backups-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { numberFormat, numberLocale } from '../../plans/format.ts';
import { CopyValue } from '../kit/CopyValue.tsx';
import { Facts } from '../kit/ResourceCrud.tsx';
import { RelativeTime, useNow } from '../kit/RelativeTime.tsx';
import { ReportCard } from '../kit/ReportCard.tsx';
import { DataTable } from '../kit/DataTable.tsx';
import {
  ConfirmAction,
  DeleteDialog,
  OperationError,
  RowAction,
  WorkspaceNameField,
} from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';
import { BusyButton } from '../../../components/form/BusyButton.tsx';

type Endpoint = BackupClientsResponse['endpoint'];

/** A client's VPN config download: its button's action, and whether it is the one under way. */
interface Download {
  run: () => void;
  busy: boolean;
}

/** The steps that set a client up; `password` null once it is gone (its placeholder instead). */
function BackupClientSteps({
  name,
  password,
  endpoint,
  configFile,
  download,
  testId,
}: {
  name: string;
  password: string | null;
  endpoint: Endpoint;
  /** The `.ovpn`'s name once downloaded here; a placeholder before. */
  configFile: string | undefined;
  download: Download;
  testId: string;
}) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const secret = password ?? t('setup.passwordPlaceholder');
  const authFile = `${name}.auth`;
  const repository = `rest:http://${name}:${secret}@${endpoint.address}:${endpoint.port}/${name}/`;
  const command = (id: string, what: string, value: string) => ({
    label: what,
    value: <CopyValue value={value} what={what} testId={`${testId}-${id}`} />,
  });
  return (
    <ol className="backup-setup__steps">
      <li>{t('setup.install')}</li>
      <li>
        <p>{t('setup.vpn', { file: authFile })}</p>
        <BusyButton
          busy={download.busy}
          label={t('setup.download')}
          busyLabel={t('clients.downloading')}
          type="button"
          className="btn btn--secondary btn--small"
          onClick={download.run}
          testId={`${testId}-download`}
        />
        <Facts
          facts={[
            command('auth', t('setup.loginFile'), `${name}\n${secret}`),
            command(
              'openvpn',
              t('setup.connect'),
              `openvpn --config ${configFile ?? t('setup.configPlaceholder')} --auth-user-pass ${authFile}`,
            ),
          ]}
        />
      </li>
      <li>
        <p>{t('setup.restic')}</p>
        <Facts
          facts={[
            command('repository', t('setup.repository'), `export RESTIC_REPOSITORY=${repository}`),
            command('init', t('setup.init'), 'restic init'),
            command('backup', t('setup.backup'), `restic backup ${t('setup.foldersPlaceholder')}`),
          ]}
        />
        <p className="text-muted backup-note">{t('setup.ownPassword')}</p>
      </li>
      <li>{t('setup.appendOnly')}</li>
    </ol>
  );
}

/** The one time a client's password shows: its login and password above the steps, until closed. */
function NewClientPanel({
  name,
  password,
  onClose,
  children,
}: {
  name: string;
  password: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const heading = useRef<HTMLHeadingElement>(null);
  // It opens on the reader's submit, below where they typed: their focus follows it here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      className="backup-setup"
      aria-labelledby="backup-client-setup-title"
      data-testid="backup-client-setup"
    >
      <h3 id="backup-client-setup-title" className="backup-setup__title" ref={heading} tabIndex={-1}>
        {t('setup.title', { name })}
      </h3>
      <FormAlert tone="warning">{t('setup.once')}</FormAlert>
      <Facts
        facts={[
          {
            label: t('setup.login'),
            value: <CopyValue value={name} what={t('setup.login')} testId="backup-client-setup-login" />,
          },
          {
            label: t('setup.password'),
            value: (
              <CopyValue value={password} what={t('setup.password')} testId="backup-client-setup-password" />
            ),
          },
        ]}
      />
      {children}
      <div className="button-row">
        <button
          type="button"
          className="btn btn--primary"
          onClick={onClose}
          data-testid="backup-client-setup-close"
        >
          {t('setup.close')}
        </button>
      </div>
    </section>
  );
}

/** Connected (green) or disconnected (grey); one the owner disconnected says since when. */
function ClientStatus({ client, testId }: { client: BackupClient; testId: string }) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  return (
    <>
      <span
        className={client.status === 'connected' ? 'badge badge--success' : 'badge'}
        data-testid={testId}
        data-status={client.status}
      >
        {t(`clients.status_${client.status}`)}
      </span>
      {client.revoked_at && (
        <span className="backup-note text-muted" data-testid={`${testId}-revoked`}>
          {t('clients.revokedOn', { date: formatDateTime(new Date(client.revoked_at), i18n.language) })}
        </span>
      )}
    </>
  );
}

/**
 * Whether its newest push is also on the provider's backup target, off the storage node; nothing
 * when nothing was copied (no backup target, or nothing pushed yet).
 */
function OffNode({ client, now, testId }: { client: BackupClient; now: Date; testId: string }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  if (!client.off_node_at) return null;
  const pending =
    client.last_push_at !== null && Date.parse(client.last_push_at) > Date.parse(client.off_node_at);
  return (
    <div className="text-muted" data-testid={testId}>
      {pending ? (
        t('clients.offNodePending')
      ) : (
        <>
          {t('clients.offNode')}{' '}
          <RelativeTime at={client.off_node_at} now={now} justNow={t('common.justNow')} />
        </>
      )}
    </div>
  );
}

function ClientActions({
  client,
  download,
  downloading,
  onAsk,
}: {
  client: BackupClient;
  download: Download;
  /** Some download is under way: the other buttons wait. */
  downloading: boolean;
  onAsk: (kind: 'disconnect' | 'delete') => void;
}) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const testId = clientTestId(client);
  const revoked = client.revoked_at !== null;
  return (
    <div className="backup-client__actions">
      {/* A disconnected client's config no longer connects: the API refuses it. */}
      {!revoked && (
        <RowAction
          label={download.busy ? t('clients.downloading') : t('clients.config')}
          target={client.name}
          disabled={downloading}
          onClick={download.run}
          testId={`${testId}-config`}
        />
      )}
      {!revoked && (
        <RowAction
          label={t('clients.disconnect')}
          target={client.name}
          onClick={() => onAsk('disconnect')}
          testId={`${testId}-disconnect`}
        />
      )}
      <RowAction
        label={t('workspace:resource.delete')}
        target={client.name}
        danger
        onClick={() => onAsk('delete')}
        testId={`${testId}-delete`}
      />
    </div>
  );
}

const clientTestId = (client: BackupClient): string => `backup-client-${client.id}`;

export function BackupClientsSection({ serviceId }: { serviceId: string }) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const now = useNow();
  const clients = useBackupClients(serviceId);
  const [asked, setAsked] = useState<{ kind: 'disconnect' | 'delete'; client: BackupClient } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // The `.ovpn` names saved so far, by client id: the connect command names the file saved.
  const [configFiles, setConfigFiles] = useState<Readonly<Record<string, string>>>({});
  const form = useContractForm({ schema: createBackupClientRequestSchema, defaultValues: { name: '' } });
  // Its answer holds the password: shown while `create.data` is, gone with `create.reset()`.
  const create = useWorkspaceMutation(
    (body: CreateBackupClientRequest) => backupsApi.createClient(serviceId, body),
    () => form.reset({ name: '' }),
  );
  // A download changes nothing: no lists to refresh.
  const download = useMutation({
    mutationFn: (client: { id: string }) => downloadBackupClientConfig(serviceId, client.id),
    onSuccess: (file, client) => setConfigFiles((files) => ({ ...files, [client.id]: file })),
  });
  const downloadOf = (client: { id: string }): Download => ({
    run: () => {
      setDone(null);
      download.mutate(client);
    },
    busy: download.isPending && download.variables.id === client.id,
  });
  const created = create.data;
  const endpoint = clients.data?.endpoint;
  return (
    <>
      <ReportCard
        id="backup-clients"
        title={t('clients.title')}
        lead={t('clients.lead')}
        notice={
          <>
            {/* Here, not with the list: a failed ask for the list must not take the password away. */}
            {created && endpoint && (
              <NewClientPanel
                name={created.name}
                password={created.password}
                onClose={() => {
                  create.reset();
                  // The panel and its button go: the reader lands back on the form.
                  form.setFocus('name');
                }}
              >
                <BackupClientSteps
                  name={created.name}
                  password={created.password}
                  endpoint={endpoint}
                  configFile={configFiles[created.id]}
                  download={downloadOf(created)}
                  testId="backup-client-setup"
                />
              </NewClientPanel>
            )}
            {done && (
              <FormAlert tone="success" testId="backup-clients-done">
                {done}
              </FormAlert>
            )}
            {download.isError && (
              <OperationError
                error={download.error}
                failure={t('clients.downloadFailed')}
                testId="backup-clients-download-error"
              />
            )}
          </>
        }
        query={clients}
        failure={t('clients.loadFailed')}
      >
        {({ clients: list, limit, endpoint: at, quota }) => {
          // A disconnected client holds its place until it is deleted.
          const full = list.length >= limit;
          return (
            <>
              <DataTable
                label={t('clients.title')}
                className="backup-table"
                testId="backup-clients-table"
                empty={{ text: t('clients.empty'), testId: 'backup-clients-empty' }}
                rows={list}
                rowKey={(client) => client.id}
                rowData={(client) => ({ 'data-testid': clientTestId(client) })}
                columns={[
                  { title: t('clients.name'), cell: (client) => client.name },
                  {
                    title: t('clients.status'),
                    className: 'backup-history__status',
                    cell: (client) => (
                      <ClientStatus client={client} testId={`${clientTestId(client)}-status`} />
                    ),
                  },
                  {
                    title: t('clients.vpn'),
                    data: (client) => ({ 'data-testid': `${clientTestId(client)}-vpn` }),
                    cell: (client) => (client.vpn_online ? t('clients.online') : t('clients.offline')),
                  },
                  {
                    title: t('clients.pushing'),
                    data: (client) => ({ 'data-testid': `${clientTestId(client)}-pushing` }),
                    cell: (client) => (client.pushing ? t('clients.yes') : t('clients.no')),
                  },
                  {
                    title: t('clients.lastPush'),
                    cell: (client) => (
                      <>
                        <div data-testid={`${clientTestId(client)}-last-push`}>
                          {client.last_push_at ? (
                            <RelativeTime at={client.last_push_at} now={now} justNow={t('common.justNow')} />
                          ) : (
                            <span className="text-muted">{t('clients.never')}</span>
                          )}
                        </div>
                        <OffNode client={client} now={now} testId={`${clientTestId(client)}-off-node`} />
                      </>
                    ),
                  },
                  {
                    title: t('clients.snapshots'),
                    numeric: true,
                    data: (client) => ({ 'data-testid': `${clientTestId(client)}-snapshots` }),
                    cell: (client) => numberFormat(numberLocale(i18n.language)).format(client.snapshots),
                  },
                  {
                    title: t('clients.size'),
                    numeric: true,
                    data: (client) => ({ 'data-testid': `${clientTestId(client)}-size` }),
                    cell: (client) =>
                      client.repository_bytes === null ? (
                        <span className="text-muted">{t('common.notMeasured')}</span>
                      ) : (
                        formatBytes(client.repository_bytes, i18n.language)
                      ),
                  },
                  {
                    title: t('clients.actions'),
                    hideTitle: true,
                    cell: (client) => (
                      <ClientActions
                        client={client}
                        download={downloadOf(client)}
                        downloading={download.isPending}
                        onAsk={(kind) => {
                          setDone(null);
                          setAsked({ kind, client });
                        }}
                      />
                    ),
                  },
                ]}
              />
              <p className="text-muted" data-testid="backup-clients-quota">
                {t('clients.quota', {
                  used: formatBytes(quota.used_bytes, i18n.language),
                  limit: formatBytes(quota.bytes, i18n.language),
                })}
              </p>
              {list
                .filter((client) => client.revoked_at === null)
                .map((client) => (
                  <details
                    key={client.id}
                    className="backup-client__help"
                    data-testid={`backup-client-${client.id}-help`}
                  >
                    <summary>{t('clients.instructions', { name: client.name })}</summary>
                    <BackupClientSteps
                      name={client.name}
                      password={null}
                      endpoint={at}
                      configFile={configFiles[client.id]}
                      download={downloadOf(client)}
                      testId={`backup-client-${client.id}-help`}
                    />
                  </details>
                ))}
              <form
                className="form backup-client__add"
                noValidate
                onSubmit={form.submitTo(create)}
                data-testid="backup-client-add"
              >
                <fieldset className="fieldset" disabled={full || create.isPending}>
                  <legend className="fieldset__title">{t('clients.addTitle')}</legend>
                  <p className="text-muted">{t('clients.addLead')}</p>
                  <p data-testid="backup-clients-counter">
                    {t('clients.counter', { used: list.length, limit })}
                  </p>
                  {full && (
                    <p className="text-muted" data-testid="backup-clients-full">
                      {t('clients.full', { limit })}
                    </p>
                  )}
                  {create.isError && (
                    <OperationError
                      error={create.error}
                      failure={t('clients.addFailed')}
                      testId="backup-client-add-error"
                    />
                  )}
                  <WorkspaceNameField
                    id="backup-client-name"
                    label={t('clients.addName')}
                    {...form.field('name')}
                  />
                  <div className="button-row">
                    <BusyButton
                      busy={create.isPending}
                      label={t('clients.add')}
                      busyLabel={t('clients.adding')}
                      testId="backup-client-add-submit"
                    />
                  </div>
                </fieldset>
              </form>
            </>
          );
        }}
      </ReportCard>
      {asked?.kind === 'disconnect' && (
        <ConfirmAction
          title={t('clients.disconnectTitle', { name: asked.client.name })}
          body={t('clients.disconnectBody')}
          confirmLabel={t('clients.disconnect')}
          busyLabel={t('clients.disconnecting')}
          failure={t('clients.disconnectFailed')}
          run={() => backupsApi.disconnectClient(serviceId, asked.client.id)}
          onDone={(client) => setDone(t('clients.disconnected', { name: client.name }))}
          onClose={() => setAsked(null)}
          testId="backup-client-disconnect-dialog"
        />
      )}
      {asked?.kind === 'delete' && (
        <DeleteDialog
          title={t('clients.deleteTitle', { name: asked.client.name })}
          body={t('clients.deleteBody')}
          failure={t('clients.deleteFailed')}
          remove={async () => {
            await backupsApi.deleteClient(serviceId, asked.client.id);
            setDone(t('clients.deleted', { name: asked.client.name }));
          }}
          onClose={() => setAsked(null)}
          testId="backup-client-delete-dialog"
        />
      )}
    </>
  );
}
