// A new subuser (username, password twice) or a subuser's new password: the contract's schemas,
// so "Passwords do not match" lands on the confirmation as the server would say it.
import { createSubuserRequestSchema, updateSubuserRequestSchema, type Subuser } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { InputField } from '../../../components/form/fields.tsx';
import { useContractForm } from '../../../forms/use-contract-form.ts';
import { subusersApi } from '../../../workspace/subusers-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { FormDialog } from '../resource-parts.tsx';

export function SubuserFormDialog({
  serviceId,
  subuser,
  onClose,
}: {
  serviceId: string;
  /** The subuser whose password changes; none: a new subuser. */
  subuser?: Subuser;
  onClose: () => void;
}) {
  return subuser ? (
    <PasswordForm serviceId={serviceId} subuser={subuser} onClose={onClose} />
  ) : (
    <CreateForm serviceId={serviceId} onClose={onClose} />
  );
}

function PasswordFields({ field }: { field: (name: 'password' | 'password_confirm') => object }) {
  const { t } = useTranslation('subusersTab');
  return (
    <>
      <InputField
        id="subuser-password"
        type="password"
        label={t('form.password')}
        autoComplete="new-password"
        data-testid="subuser-password"
        {...field('password')}
      />
      <InputField
        id="subuser-password-confirm"
        type="password"
        label={t('form.passwordConfirm')}
        autoComplete="new-password"
        data-testid="subuser-password-confirm"
        {...field('password_confirm')}
      />
    </>
  );
}

function CreateForm({ serviceId, onClose }: { serviceId: string; onClose: () => void }) {
  const { t } = useTranslation('subusersTab');
  const form = useContractForm({
    schema: createSubuserRequestSchema,
    defaultValues: { username: '', password: '', password_confirm: '' },
  });
  const create = useWorkspaceMutation(
    (body: { username: string; password: string; password_confirm: string }) =>
      subusersApi.create(serviceId, body),
    onClose,
  );
  return (
    <FormDialog
      title={t('form.createTitle')}
      onClose={onClose}
      onSubmit={form.submitTo(create)}
      change={create}
      failure={t('failed.create')}
      submitLabel={t('form.create')}
      testIds={{ dialog: 'subuser-form', error: 'subuser-form-error', submit: 'subuser-form-submit' }}
    >
      <InputField
        id="subuser-username"
        label={t('form.username')}
        hint={t('form.usernameHint')}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        data-testid="subuser-username"
        {...form.field('username')}
      />
      <PasswordFields field={(name) => form.field(name)} />
    </FormDialog>
  );
}

function PasswordForm({
  serviceId,
  subuser,
  onClose,
}: {
  serviceId: string;
  subuser: Subuser;
  onClose: () => void;
}) {
  const { t } = useTranslation('subusersTab');
  const form = useContractForm({
    schema: updateSubuserRequestSchema,
    defaultValues: { password: '', password_confirm: '' },
  });
  const update = useWorkspaceMutation(
    (body: { password: string; password_confirm: string }) => subusersApi.update(serviceId, subuser.id, body),
    onClose,
  );
  return (
    <FormDialog
      title={t('form.passwordTitle', { name: subuser.username })}
      onClose={onClose}
      onSubmit={form.submitTo(update)}
      change={update}
      failure={t('failed.update')}
      submitLabel={t('form.save')}
      testIds={{ dialog: 'subuser-form', error: 'subuser-form-error', submit: 'subuser-form-submit' }}
    >
      <PasswordFields field={(name) => form.field(name)} />
    </FormDialog>
  );
}
