// Creating or changing a VPN user (spec §3 "VPN user"): username (on creation only: it is the
// name in the user's certificate), password typed twice (on creation only: "Reset password"
// changes it later), full name, email, enabled, and the monthly traffic limit typed in MB or GB.
import type { VpnUser } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { InputField, SelectField } from '../../../components/form/fields.tsx';
import type { ContractForm } from '../../../forms/use-contract-form.ts';
import { vpnApi } from '../../../workspace/vpn-api.ts';
import { VERBATIM } from '../kit/form-fields.tsx';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';
import {
  createRequestOf,
  LIMIT_MESSAGES,
  limitFields,
  TRAFFIC_UNITS,
  updateRequestOf,
  vpnUserCreateFormSchema,
  vpnUserEditFormSchema,
  type LimitMessage,
} from './vpn-forms.ts';

/** A new password, never filled in from the browser's saved ones. */
export const NEW_PASSWORD = { type: 'password', autoComplete: 'new-password', required: true } as const;

const LIMIT_KEYS: readonly string[] = Object.values(LIMIT_MESSAGES);
const isLimitMessage = (message: string | undefined): message is LimitMessage =>
  message !== undefined && LIMIT_KEYS.includes(message);

/** The amount and its unit side by side; the amount's message in the reader's language. */
type LimitForm = ContractForm<typeof vpnUserCreateFormSchema> | ContractForm<typeof vpnUserEditFormSchema>;

function LimitField({ form }: { form: LimitForm }) {
  const { t } = useTranslation(['vpnTab', 'workspace']);
  // Both forms have these two fields; the union's methods are not callable as one.
  const limitForm = form as ContractForm<typeof vpnUserEditFormSchema>;
  const message = limitForm.formState.errors.traffic_limit_bytes?.message;
  const { error: shown, ...amount } = limitForm.field('traffic_limit_bytes');
  return (
    <div className="vpn-limit-field">
      <InputField
        id="vpn-user-limit"
        label={t('vpn.limit')}
        hint={t('vpn.limitHint')}
        inputMode="decimal"
        data-testid="vpn-user-limit"
        {...VERBATIM}
        {...amount}
        error={isLimitMessage(message) ? t(message) : shown}
      />
      <SelectField
        id="vpn-user-limit-unit"
        label={t('vpn.limitUnit')}
        data-testid="vpn-user-limit-unit"
        {...limitForm.field('traffic_unit')}
      >
        {TRAFFIC_UNITS.map((unit) => (
          <option key={unit} value={unit}>
            {unit}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

export function VpnUserDialog({
  serviceId,
  user,
  onSaved,
  onClose,
}: {
  serviceId: string;
  /** null: a new user. */
  user: VpnUser | null;
  onSaved: (username: string, created: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation(['vpnTab', 'workspace']);
  const testIds = { dialog: 'vpn-user-dialog', error: 'vpn-user-save-error', submit: 'vpn-user-submit' };
  // What both forms end with (all the edit form has): named alike in both schemas.
  const profile = [
    { kind: 'text', name: 'full_name', id: 'vpn-user-full-name', label: t('vpn.fullName'), optional: true },
    {
      kind: 'text',
      name: 'email',
      id: 'vpn-user-email',
      label: t('vpn.email'),
      optional: true,
      input: { type: 'email', autoComplete: 'off' },
    },
    { kind: 'custom', key: 'limit', render: (form: LimitForm) => <LimitField form={form} /> },
    {
      kind: 'checkbox',
      name: 'enabled',
      id: 'vpn-user-enabled',
      label: t('vpn.enabled'),
      hint: t('vpn.enabledHint'),
    },
  ] as const;
  if (user === null) {
    return (
      <ResourceFormDialog
        title={t('vpn.createTitle')}
        schema={vpnUserCreateFormSchema}
        defaultValues={{
          username: '',
          password: '',
          confirm: '',
          full_name: '',
          email: '',
          enabled: true,
          ...limitFields(0),
        }}
        save={async (values) => {
          const created = await vpnApi.createUser(serviceId, createRequestOf(values));
          onSaved(created.username, true);
          return created;
        }}
        failure={t('vpn.createFailed')}
        submitLabel={t('vpn.create')}
        testIds={testIds}
        onClose={onClose}
        fields={(f) => [
          f.name('username', 'vpn-user-username', t('vpn.username')),
          f.text('password', 'vpn-user-password', t('vpn.password'), {
            hint: t('vpn.passwordHint'),
            input: NEW_PASSWORD,
          }),
          f.text('confirm', 'vpn-user-confirm', t('vpn.confirmPassword'), { input: NEW_PASSWORD }),
          ...profile,
        ]}
      />
    );
  }
  return (
    <ResourceFormDialog
      title={t('vpn.editTitle', { name: user.username })}
      schema={vpnUserEditFormSchema}
      defaultValues={{
        full_name: user.full_name,
        email: user.email,
        enabled: user.enabled,
        ...limitFields(user.traffic_limit_bytes),
      }}
      save={async (values) => {
        const saved = await vpnApi.updateUser(serviceId, user.id, updateRequestOf(values));
        onSaved(saved.username, false);
        return saved;
      }}
      failure={t('vpn.updateFailed')}
      submitLabel={t('workspace:resource.save')}
      testIds={testIds}
      onClose={onClose}
      fields={() => profile}
    />
  );
}
