// Two-factor set-up for a subuser: the server makes a secret (2FA stays off), the dialog shows it as
// a QR code and as text, and the first right code from the app turns 2FA on; the backup codes the
// server answers then are shown once (BackupCodesDialog).
import { twoFactorVerifyRequestSchema, type Subuser } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { InputField } from '../../../components/form/fields.tsx';
import { useContractForm } from '../../../forms/use-contract-form.ts';
import { subusersApi } from '../../../workspace/subusers-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { CopyValue } from '../kit/CopyValue.tsx';
import { QrCode } from '../kit/QrCode.tsx';
import { FormDialog, OperationError } from '../resource-parts.tsx';

export function TwoFactorSetupDialog({
  serviceId,
  subuser,
  onClose,
  onEnabled,
}: {
  serviceId: string;
  subuser: Subuser;
  onClose: () => void;
  onEnabled: (codes: string[]) => void;
}) {
  const { t } = useTranslation('subusersTab');
  const title = t('twoFactor.title', { name: subuser.username });
  // A new secret each time the dialog opens: one not verified is replaced, never reused.
  const setup = useQuery({
    queryKey: ['subuser-2fa-setup', subuser.id],
    queryFn: () => subusersApi.startTwoFactor(serviceId, subuser.id),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const form = useContractForm({ schema: twoFactorVerifyRequestSchema, defaultValues: { code: '' } });
  const verify = useWorkspaceMutation(
    ({ code }: { code: string }) => subusersApi.verifyTwoFactor(serviceId, subuser.id, code),
    (result) => onEnabled(result.backup_codes),
  );
  if (!setup.data) {
    return (
      <Dialog title={title} onClose={onClose} testId="subuser-2fa-dialog">
        {setup.isError && <OperationError error={setup.error} failure={t('failed.setUp')} />}
      </Dialog>
    );
  }
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={form.submitTo(verify)}
      change={verify}
      failure={t('failed.verify')}
      submitLabel={t('twoFactor.verify')}
      testIds={{ dialog: 'subuser-2fa-dialog', error: 'subuser-2fa-error', submit: 'totp-verify' }}
    >
      <p>{t('twoFactor.scan')}</p>
      <div className="subusers__qr">
        <QrCode value={setup.data.otpauth_uri} label={t('twoFactor.qrLabel')} testId="totp-qr" size={180} />
      </div>
      <p className="text-muted">{t('twoFactor.secret')}</p>
      <CopyValue value={setup.data.secret} what={t('twoFactor.secret')} testId="totp-secret" />
      <InputField
        id="totp-code"
        label={t('twoFactor.code')}
        hint={t('twoFactor.codeHint')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        data-testid="totp-code"
        {...form.field('code')}
      />
    </FormDialog>
  );
}
