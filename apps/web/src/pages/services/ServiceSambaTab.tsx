// /dashboard/services/{id}/samba (spec §2 "samba"): the workspace's Samba server (where clients
// connect, whether the node serves it, reload) and its shares with their users, permissions and
// groups.
import { SHARE_PERMISSIONS, type SambaShare, type SambaShareUser } from '@debesis/contract';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form/fields.tsx';
import { useWorkspaceGroups, useWorkspaceUsers } from '../../workspace/directory-api.ts';
import { sambaApi, useSambaShares, useSambaStatus } from '../../workspace/samba-api.ts';
import { useUrlList } from '../../workspace/url-list.ts';
import { useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { DeleteDialog, OperationError, ResourceRow, ResourceSection, RowAction } from './resource-parts.tsx';
import { DaemonStatusCard } from './DaemonStatusCard.tsx';
import { useServiceTab } from './use-service-tab.ts';
import { SambaSettingsForm } from './SambaSettingsForm.tsx';
import { ShareDialog } from './ShareDialog.tsx';

type Translate = TFunction<['sambaTab', 'workspace']>;

type ShareDialogState =
  { kind: 'create' } | { kind: 'edit'; share: SambaShare } | { kind: 'delete'; share: string };

export function ServiceSambaTab() {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const { service } = useServiceTab('samba');
  const status = useSambaStatus(service.id);
  const reload = useWorkspaceMutation(() => sambaApi.reload(service.id));
  const address = status.data?.address ?? null;
  return (
    <div className="service-tab-stack">
      <DaemonStatusCard
        title={t('samba.serverTitle')}
        name="Samba"
        report={status.data}
        loading={status.isPending}
        failed={status.isError}
        words={{
          serving: () => t('samba.live'),
          notServing: (reason) => (reason ? t('samba.notLiveReason', { reason }) : t('samba.notLive')),
          waiting: () => t('samba.waitingForNode'),
          notPlaced: () => t('samba.notPlaced'),
        }}
        rows={
          <div>
            <dt>{t('samba.address')}</dt>
            <dd data-testid="samba-address">
              {address ? <code>{`\\\\${address}`}</code> : t('samba.notPlaced')}
            </dd>
          </div>
        }
        actions={
          <button
            type="button"
            className="btn btn--secondary"
            disabled={reload.isPending || !status.data?.placed}
            onClick={() => reload.mutate(undefined)}
            data-testid="samba-reload"
          >
            {reload.isPending ? t('samba.reloading') : t('samba.reload')}
          </button>
        }
        notices={
          <>
            {reload.isSuccess && (
              <FormAlert tone="success" testId="samba-reload-done">
                {t('samba.reloaded')}
              </FormAlert>
            )}
            {reload.isError && (
              <OperationError
                error={reload.error}
                failure={t('samba.reloadFailed')}
                testId="samba-reload-error"
              />
            )}
          </>
        }
        testId="samba"
      />
      {status.data && <SambaSettingsForm serviceId={service.id} settings={status.data.settings} />}
      <SharesSection serviceId={service.id} address={address} />
    </div>
  );
}

function permissionText(user: SambaShareUser, t: Translate): string {
  const granted = SHARE_PERMISSIONS.filter((permission) => user[permission]);
  const names = granted.map((permission) => t(`samba.permission_${permission}`)).join(', ');
  return `${user.name} (${names || t('samba.noAccess')})`;
}

function SharesSection({ serviceId, address }: { serviceId: string; address: string | null }) {
  const { t } = useTranslation(['sambaTab', 'workspace']);
  const shares = useSambaShares(serviceId);
  const users = useWorkspaceUsers(serviceId);
  const groups = useWorkspaceGroups(serviceId);
  const [dialog, setDialog] = useState<ShareDialogState | null>(null);
  const list = shares.data?.shares ?? [];
  const listPage = useUrlList(list, (share) => share.name);
  const close = () => setDialog(null);
  // The form lists the service's users and groups to choose from: wait for them.
  const ready = shares.isSuccess && users.isSuccess && groups.isSuccess;
  return (
    <>
      <ResourceSection
        title={t('samba.sharesTitle')}
        lead={t('samba.sharesLead')}
        addLabel={t('samba.add')}
        onAdd={() => setDialog({ kind: 'create' })}
        addDisabled={!ready}
        notice={
          (users.isError || groups.isError) && (
            <OperationError error={users.error ?? groups.error} failure={t('samba.usersLoadFailed')} />
          )
        }
        load={shares}
        loadFailed={t('samba.loadFailed')}
        emptyText={t('samba.empty')}
        statuses={list.map((share) => share.apply_status)}
        list={listPage}
        testId="samba-shares"
      >
        {listPage.shown.map((share) => (
          <ResourceRow
            key={share.name}
            name={share.name}
            testId={`share-${share.name}`}
            status={share.apply_status}
            applyError={share.apply_error}
            badges={
              <>
                {share.guest_ok && <span className="badge badge--warning">{t('samba.guestBadge')}</span>}
                {!share.browseable && <span className="badge">{t('samba.hiddenBadge')}</span>}
                {share.bind_public_ip && <span className="badge badge--info">{t('samba.publicBadge')}</span>}
              </>
            }
            details={
              <dl className="resource-facts">
                {address && (
                  <div>
                    <dt>{t('samba.connect')}</dt>
                    <dd>
                      <code data-testid={`share-${share.name}-unc`}>{`\\\\${address}\\${share.name}`}</code>
                    </dd>
                  </div>
                )}
                <div>
                  <dt>{t('samba.path')}</dt>
                  <dd>
                    <code>{share.path}</code>
                  </dd>
                </div>
                {share.description && (
                  <div>
                    <dt>{t('samba.description')}</dt>
                    <dd>{share.description}</dd>
                  </div>
                )}
                <div>
                  <dt>{t('samba.users')}</dt>
                  <dd data-testid={`share-${share.name}-users`}>
                    {share.users.length === 0
                      ? t('samba.none')
                      : share.users.map((user) => permissionText(user, t)).join('; ')}
                  </dd>
                </div>
                <div>
                  <dt>{t('samba.groups')}</dt>
                  <dd data-testid={`share-${share.name}-groups`}>
                    {share.groups.length === 0 ? t('samba.none') : share.groups.join(', ')}
                  </dd>
                </div>
              </dl>
            }
            actions={
              <>
                <RowAction
                  label={t('workspace:resource.edit')}
                  target={share.name}
                  disabled={!ready}
                  onClick={() => setDialog({ kind: 'edit', share })}
                  testId={`share-${share.name}-edit`}
                />
                <RowAction
                  label={t('workspace:resource.delete')}
                  target={share.name}
                  danger
                  onClick={() => setDialog({ kind: 'delete', share: share.name })}
                  testId={`share-${share.name}-delete`}
                />
              </>
            }
          />
        ))}
      </ResourceSection>
      {(dialog?.kind === 'create' || dialog?.kind === 'edit') && (
        <ShareDialog
          serviceId={serviceId}
          share={dialog.kind === 'edit' ? dialog.share : null}
          users={users.data?.users ?? []}
          groups={groups.data?.groups ?? []}
          onClose={close}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteDialog
          title={t('samba.deleteTitle', { name: dialog.share })}
          body={t('samba.deleteBody')}
          failure={t('samba.deleteFailed')}
          remove={() => sambaApi.deleteShare(serviceId, dialog.share)}
          onClose={close}
          testId="share-delete-dialog"
        />
      )}
    </>
  );
}
