// /linux-user: the portal of a workspace's own users (spec §2 "Linux-user portal": its own
// sign-in, its own stored token; docs/features/linux-user-portal.md). Without a token, the sign-in:
// the workspace's service ID (also taken from `?service=`), user name, password. With one: the
// user's workspace, account, the shares it can reach and how to connect from each system, the
// password change (Samba, FTP, SFTP, LDAP and VPN at once) and its own VPN config. A token the API
// no longer takes (401, or 403 linux_user_token_required) brings the sign-in back with a word.
import {
  linuxUserChangePasswordRequestSchema,
  linuxUserLoginRequestSchema,
  type LinuxUserChangePasswordRequest,
  type LinuxUserShare,
} from '@debesis/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError, serverMessage } from '../../api/api-error.ts';
import { BusyButton } from '../../components/form/BusyButton.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
// The copy buttons' words (CopyValue) and the status badge's are the service pages' texts.
import '../../i18n/workspace-messages.ts';
import { localeOf } from '../activity/relative-time.ts';
import { CopyValue } from '../services/kit/CopyValue.tsx';
import { ServiceStatusBadge } from '../services/service-parts.tsx';
import { FieldList } from '../services/kit/form-fields.tsx';
import { clearPortalToken, getPortalToken, portalApi } from './portal-api.ts';
import './linux-portal.css';

const signInSchema = linuxUserLoginRequestSchema.pick({ client_id: true, username: true, password: true });

const CURRENT_PASSWORD = { type: 'password', autoComplete: 'current-password' } as const;
const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password' } as const;

const errorText = (error: unknown, fallback: string) =>
  (isApiError(error) && serverMessage(error)) || fallback;

/** A token the API no longer takes: the portal's session is over. */
const sessionEnded = (error: unknown) =>
  isApiError(error) && (error.status === 401 || error.detail === 'linux_user_token_required');

export function LinuxPortalPage() {
  const { t } = useTranslation('linuxPortal');
  useDocumentTitle(t('title'));
  const [signedIn, setSignedIn] = useState(() => getPortalToken() !== null);
  const [ended, setEnded] = useState(false);
  const client = useQueryClient();
  const signOut = (becauseEnded: boolean) => {
    clearPortalToken();
    client.removeQueries({ queryKey: ['linux-portal'] });
    setEnded(becauseEnded);
    setSignedIn(false);
  };
  return (
    <div className="linux-portal" data-testid="linux-portal">
      <h1>{t('title')}</h1>
      {signedIn ? (
        <PortalHome onSignOut={signOut} />
      ) : (
        <SignIn
          ended={ended}
          onSignedIn={() => {
            setEnded(false);
            setSignedIn(true);
          }}
        />
      )}
    </div>
  );
}

function SignIn({ ended, onSignedIn }: { ended: boolean; onSignedIn: () => void }) {
  const { t } = useTranslation('linuxPortal');
  const [search] = useSearchParams();
  const form = useContractForm({
    schema: signInSchema,
    defaultValues: { client_id: search.get('service') ?? '', username: '', password: '' },
  });
  const signIn = useMutation({
    mutationFn: (values: { client_id: string; username: string; password: string }) =>
      portalApi.signIn(values.client_id, values.username, values.password),
    onSuccess: onSignedIn,
  });
  return (
    <PortalFormCard
      id="portal-sign-in"
      title={t('signIn.submit')}
      lead={t('signIn.lead')}
      change={signIn}
      failure={t('signIn.failed')}
      onSubmit={form.submitTo(signIn)}
      testId="portal-sign-in"
      submit={{ label: t('signIn.submit'), busyLabel: t('signIn.submitting'), block: true }}
      notice={ended && !signIn.isError && <FormAlert tone="info">{t('signIn.ended')}</FormAlert>}
    >
      <FieldList
        form={form}
        fields={(f) => [
          f.text('client_id', 'portal-service-id', t('signIn.serviceId'), {
            input: { autoComplete: 'off', spellCheck: false },
          }),
          f.text('username', 'portal-username', t('signIn.username'), {
            input: { autoComplete: 'username', autoCapitalize: 'none', spellCheck: false },
          }),
          f.text('password', 'portal-password', t('signIn.password'), { input: CURRENT_PASSWORD }),
        ]}
      />
    </PortalFormCard>
  );
}

/**
 * One of the portal's forms on its card: title, lead, why the last try failed (`<id>-error`) or the
 * form's own notice, then the form: its fields and its button (`<id>-submit`).
 */
function PortalFormCard({
  id,
  title,
  lead,
  change,
  failure,
  onSubmit,
  testId,
  submit,
  notice,
  children,
}: {
  id: string;
  title: string;
  lead: string;
  change: { isPending: boolean; isError: boolean; error: unknown };
  /** Said when the server gives no words of its own. */
  failure: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  testId: string;
  submit: { label: string; busyLabel: string; block?: boolean };
  notice: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card linux-portal__card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p className="text-muted">{lead}</p>
      {change.isError && (
        <FormAlert tone="error" testId={`${id}-error`}>
          {errorText(change.error, failure)}
        </FormAlert>
      )}
      {notice}
      <form className="form" noValidate onSubmit={onSubmit} data-testid={testId}>
        {children}
        <BusyButton
          busy={change.isPending}
          label={submit.label}
          busyLabel={submit.busyLabel}
          className={submit.block ? 'btn btn--primary btn--block' : 'btn btn--primary'}
          testId={`${id}-submit`}
        />
      </form>
    </section>
  );
}

function PortalHome({ onSignOut }: { onSignOut: (ended: boolean) => void }) {
  const { t, i18n } = useTranslation('linuxPortal');
  const query = { retry: false, refetchOnWindowFocus: false } as const;
  const me = useQuery({ queryKey: ['linux-portal', 'me'], queryFn: portalApi.me, ...query });
  const service = useQuery({ queryKey: ['linux-portal', 'service'], queryFn: portalApi.service, ...query });
  const shares = useQuery({ queryKey: ['linux-portal', 'shares'], queryFn: portalApi.shares, ...query });
  const failed = [me, service, shares].find((each) => each.isError)?.error;
  const over = failed !== undefined && sessionEnded(failed);
  useEffect(() => {
    if (over) onSignOut(true);
  }, [over, onSignOut]);
  if (failed)
    return over ? null : <FormAlert tone="error">{errorText(failed, t('home.loadFailed'))}</FormAlert>;
  if (!me.data || !service.data || !shares.data) return <p className="text-muted">{t('home.loading')}</p>;
  const user = me.data;
  const workspace = service.data;
  return (
    <div className="linux-portal__home">
      <header className="linux-portal__header">
        <p data-testid="portal-signed-in">
          {t('home.signedInAs', { name: user.username, workspace: workspace.name })}
        </p>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => onSignOut(false)}
          data-testid="portal-sign-out"
        >
          {t('home.signOut')}
        </button>
      </header>

      <section className="card linux-portal__card" aria-labelledby="portal-workspace">
        <h2 id="portal-workspace">{t('workspace.title')}</h2>
        <dl className="linux-portal__facts">
          <dt>{t('workspace.status')}</dt>
          <dd>
            <ServiceStatusBadge service={workspace} testId="portal-status" />
          </dd>
          <dt>{t('workspace.address')}</dt>
          <dd data-testid="portal-address">{workspace.ip_address ?? t('workspace.noAddress')}</dd>
          {workspace.valid_until && (
            <>
              <dt>{t('workspace.validUntil')}</dt>
              <dd>
                {new Intl.DateTimeFormat(localeOf(i18n.language), { dateStyle: 'medium' }).format(
                  new Date(workspace.valid_until),
                )}
              </dd>
            </>
          )}
        </dl>
        {workspace.vpn_only && <p className="text-muted">{t('workspace.vpnOnly')}</p>}
      </section>

      <section className="card linux-portal__card" aria-labelledby="portal-account">
        <h2 id="portal-account">{t('account.title')}</h2>
        <dl className="linux-portal__facts">
          <dt>{t('account.username')}</dt>
          <dd>{user.username}</dd>
          <dt>{t('account.groups')}</dt>
          <dd>{user.groups.length > 0 ? user.groups.join(', ') : t('account.noGroups')}</dd>
        </dl>
      </section>

      <section className="linux-portal__shares" aria-labelledby="portal-shares">
        <h2 id="portal-shares">{t('shares.title')}</h2>
        {shares.data.shares.length === 0 ? (
          <p className="text-muted">{t('shares.empty')}</p>
        ) : (
          shares.data.shares.map((share) => <ShareCard key={`${share.kind}-${share.name}`} share={share} />)
        )}
      </section>

      <PasswordCard />
      <VpnCard username={user.username} access={user.vpn_access} />
    </div>
  );
}

function ShareCard({ share }: { share: LinuxUserShare }) {
  const { t } = useTranslation('linuxPortal');
  const title =
    share.kind === 'ftp' ? t('shares.ftpName') : share.kind === 'sftp' ? t('shares.sftpName') : share.name;
  const id = `portal-share-${share.kind}-${share.name}`;
  return (
    <article className="card linux-portal__card" aria-labelledby={id} data-testid={id}>
      <h3 id={id}>{title}</h3>
      <p className="text-muted">
        {t(`shares.kind.${share.kind}`)} ·{' '}
        <span data-testid={`${id}-rights`}>{t(`shares.rights.${share.rights}`)}</span>
        {share.via_group && <> · {t('shares.viaGroup', { group: share.via_group })}</>}
      </p>
      {share.description && <p>{share.description}</p>}
      {share.address && (
        <p>
          {t('shares.address')}: <code>{share.address}</code>
        </p>
      )}
      <h4>{t('shares.connect')}</h4>
      {(['windows', 'macos', 'linux'] as const).map((system) => (
        <div key={system} className="linux-portal__connect">
          <span>{t(`shares.${system}`)}</span>
          <CopyValue value={share.connect[system]} what={t('shares.copy')} testId={`${id}-${system}`} />
        </div>
      ))}
    </article>
  );
}

function PasswordCard() {
  const { t } = useTranslation('linuxPortal');
  const form = useContractForm({
    schema: linuxUserChangePasswordRequestSchema,
    defaultValues: { current_password: '', new_password: '', new_password_confirm: '' },
  });
  const change = useMutation({
    mutationFn: (body: LinuxUserChangePasswordRequest) => portalApi.changePassword(body),
    onSuccess: () => form.reset(),
  });
  return (
    <PortalFormCard
      id="portal-password"
      title={t('password.title')}
      lead={t('password.lead')}
      change={change}
      failure={t('password.failed')}
      onSubmit={form.submitTo(change)}
      testId="portal-password-form"
      submit={{ label: t('password.submit'), busyLabel: t('password.submitting') }}
      notice={
        change.isSuccess && (
          <FormAlert tone="success" testId="portal-password-changed">
            {change.data.message}{' '}
            {t('password.appliedTo', {
              list: change.data.applied_to.map((name) => name.toUpperCase()).join(', '),
            })}
          </FormAlert>
        )
      }
    >
      <FieldList
        form={form}
        fields={(f) => [
          f.text('current_password', 'portal-current-password', t('password.current'), {
            input: CURRENT_PASSWORD,
          }),
          f.text('new_password', 'portal-new-password', t('password.new'), { input: NEW_PASSWORD }),
          f.text('new_password_confirm', 'portal-new-password-confirm', t('password.confirm'), {
            input: NEW_PASSWORD,
          }),
        ]}
      />
    </PortalFormCard>
  );
}

function VpnCard({ username, access }: { username: string; access: boolean }) {
  const { t } = useTranslation('linuxPortal');
  const download = useMutation({ mutationFn: () => portalApi.downloadVpnConfig(username) });
  return (
    <section className="card linux-portal__card" aria-labelledby="portal-vpn">
      <h2 id="portal-vpn">{t('vpn.title')}</h2>
      {access ? (
        <>
          <p className="text-muted">{t('vpn.lead')}</p>
          {download.isError && (
            <FormAlert tone="error">{errorText(download.error, t('vpn.failed'))}</FormAlert>
          )}
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => download.mutate()}
            disabled={download.isPending}
            data-testid="portal-vpn-download"
          >
            {t('vpn.download')}
          </button>
        </>
      ) : (
        <p className="text-muted" data-testid="portal-vpn-none">
          {t('vpn.none')}
        </p>
      )}
    </section>
  );
}
