// A new subuser (username, password twice) or a subuser's new password: the contract's schemas,
// so "Passwords do not match" lands on the confirmation as the server would say it.
import { createSubuserRequestSchema, updateSubuserRequestSchema, type Subuser } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { subusersApi } from '../../../workspace/subusers-api.ts';
import { VERBATIM } from '../kit/form-fields.tsx';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';

const TEST_IDS = { dialog: 'subuser-form', error: 'subuser-form-error', submit: 'subuser-form-submit' };
const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password' } as const;
const NO_PASSWORDS = { password: '', password_confirm: '' };

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
  const { t } = useTranslation('subusersTab');
  // Both forms end with the password twice, named alike in both schemas.
  const passwords = [
    {
      kind: 'text',
      name: 'password',
      id: 'subuser-password',
      label: t('form.password'),
      input: NEW_PASSWORD,
    },
    {
      kind: 'text',
      name: 'password_confirm',
      id: 'subuser-password-confirm',
      label: t('form.passwordConfirm'),
      input: NEW_PASSWORD,
    },
  ] as const;
  return subuser ? (
    <ResourceFormDialog
      title={t('form.passwordTitle', { name: subuser.username })}
      schema={updateSubuserRequestSchema}
      defaultValues={NO_PASSWORDS}
      fields={() => passwords}
      save={(values) => subusersApi.update(serviceId, subuser.id, values)}
      failure={t('failed.update')}
      submitLabel={t('form.save')}
      testIds={TEST_IDS}
      onClose={onClose}
    />
  ) : (
    <ResourceFormDialog
      title={t('form.createTitle')}
      schema={createSubuserRequestSchema}
      defaultValues={{ username: '', ...NO_PASSWORDS }}
      fields={(f) => [
        f.text('username', 'subuser-username', t('form.username'), {
          hint: t('form.usernameHint'),
          input: VERBATIM,
        }),
        ...passwords,
      ]}
      save={(values) => subusersApi.create(serviceId, values)}
      failure={t('failed.create')}
      submitLabel={t('form.create')}
      testIds={TEST_IDS}
      onClose={onClose}
    />
  );
}
