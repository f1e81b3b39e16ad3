// The new-link dialog: what to share (a Samba share, an NFS export, or a file or folder picked in
// the storage), the spec's expiry choices, and the optional label, password, download limit and
// address rules. The kit's form dialog checks it with the contract (share-link-form.ts) and puts
// the server's field errors on their fields; the address lists are also checked line by line as
// they are typed, with the contract's rule.
import { SHARE_LINK_EXPIRIES, SHARE_LINK_TYPES, type ShareLink } from '@debesis/contract';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { fieldErrorText } from '../../../forms/messages.ts';
import type { ContractForm } from '../../../forms/use-contract-form.ts';
import { SelectField } from '../../../components/form/fields.tsx';
import { useNfsExports } from '../../../workspace/nfs-api.ts';
import { useSambaShares } from '../../../workspace/samba-api.ts';
import { shareLinksApi } from '../../../workspace/share-links-api.ts';
import { ResourceFormDialog } from '../kit/ResourceFormDialog.tsx';
import { NEW_SHARE_LINK, badIpLine, onTheAddressBox, shareLinkFormSchema } from './share-link-form.ts';
import { StoragePicker } from './StoragePicker.tsx';

type Form = ContractForm<typeof shareLinkFormSchema>;

/** What to share: choosing another kind forgets the target chosen for the last one. */
function TypeField({ form }: { form: Form }) {
  const { t } = useTranslation('shareLinksTab');
  return (
    <SelectField
      id="share-link-type"
      label={t('form.type')}
      data-testid="share-link-type"
      {...form.field('type', { onChange: () => form.setValue('target', '') })}
    >
      {SHARE_LINK_TYPES.map((type) => (
        <option key={type} value={type}>
          {t(`type.${type}`)}
        </option>
      ))}
    </SelectField>
  );
}

/** The share or export from the service's lists, or a path picked in the storage (never typed). */
function TargetField({ form, serviceId }: { form: Form; serviceId: string }) {
  const { t } = useTranslation('shareLinksTab');
  const [type, target] = useWatch({ control: form.control, name: ['type', 'target'] });
  const shares = useSambaShares(serviceId);
  const exports = useNfsExports(serviceId);
  const error = form.errorText('target');
  if (type === 'path') {
    return (
      <div className="field">
        <StoragePicker
          serviceId={serviceId}
          chosen={target}
          onChoose={(path) => form.setValue('target', path, { shouldValidate: form.formState.isSubmitted })}
        />
        {error && (
          <p className="field__error" data-testid="share-link-target-error">
            {error}
          </p>
        )}
      </div>
    );
  }
  const options =
    type === 'samba'
      ? (shares.data?.shares.map((share) => share.name) ?? [])
      : (exports.data?.exports.map((entry) => entry.path) ?? []);
  const none = type === 'samba' ? t('form.noShares') : t('form.noExports');
  return (
    <SelectField
      id="share-link-target"
      label={type === 'samba' ? t('form.share') : t('form.export')}
      hint={options.length === 0 ? none : undefined}
      data-testid="share-link-target"
      {...form.field('target')}
    >
      <option value="">{t('form.choose')}</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </SelectField>
  );
}

/** An address list, one rule a line: the first bad line is named as soon as it is typed. */
function IpRulesField({ form, name }: { form: Form; name: 'ip_allow' | 'ip_deny' }) {
  const { t } = useTranslation('shareLinksTab');
  const { t: tApp } = useTranslation();
  const text = useWatch({ control: form.control, name });
  const bad = badIpLine(text);
  const error = bad
    ? t('form.line', { line: bad.line, message: fieldErrorText(tApp, bad.code) })
    : form.errorText(name);
  const id = name === 'ip_allow' ? 'share-link-ip-allow' : 'share-link-ip-deny';
  const texts = name === 'ip_allow' ? 'allow' : 'deny';
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {t(`form.${texts}`)}
        <span className="field__optional"> ({tApp('common.optional')})</span>
      </label>
      <textarea
        id={id}
        className="input share-link__rules"
        rows={3}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        data-testid={id}
        {...form.register(name)}
      />
      <p id={`${id}-hint`} className="field__hint">
        {t(`form.${texts}Hint`)}
      </p>
      {error && (
        <p id={`${id}-error`} className="field__error" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function ShareLinkCreateDialog({
  serviceId,
  onClose,
  onCreated,
}: {
  serviceId: string;
  onClose: () => void;
  onCreated: (link: ShareLink) => void;
}) {
  const { t } = useTranslation(['shareLinksTab', 'workspace']);
  return (
    <ResourceFormDialog
      title={t('form.title')}
      schema={shareLinkFormSchema}
      defaultValues={NEW_SHARE_LINK}
      save={async (request) => {
        try {
          const link = await shareLinksApi.create(serviceId, request);
          onCreated(link);
          return link;
        } catch (error) {
          throw onTheAddressBox(error, request, (rule, message) => t('form.rule', { rule, message }));
        }
      }}
      failure={t('createFailed')}
      submitLabel={t('form.submit')}
      testIds={{ dialog: 'share-link-dialog', error: 'share-link-error', submit: 'share-link-submit' }}
      onClose={onClose}
      fields={(f) => [
        { kind: 'custom', key: 'type', render: (form) => <TypeField form={form} /> },
        {
          kind: 'custom',
          key: 'target',
          render: (form) => <TargetField form={form} serviceId={serviceId} />,
        },
        f.select(
          'expiry',
          'share-link-expiry',
          t('form.expiry'),
          SHARE_LINK_EXPIRIES.map((expiry) => ({ value: expiry, label: t(`form.expiries.${expiry}`) })),
        ),
        f.text('label', 'share-link-label', t('form.label'), {
          hint: t('form.labelHint'),
          optional: true,
          input: { maxLength: 100 },
        }),
        f.text('password', 'share-link-password', t('form.password'), {
          hint: t('form.passwordHint'),
          optional: true,
          input: { type: 'password', autoComplete: 'new-password' },
        }),
        f.text('download_limit', 'share-link-limit', t('form.limit'), {
          hint: t('form.limitHint'),
          optional: true,
          input: { type: 'number', inputMode: 'numeric', min: 1, step: 1 },
        }),
        { kind: 'custom', key: 'ip_allow', render: (form) => <IpRulesField form={form} name="ip_allow" /> },
        { kind: 'custom', key: 'ip_deny', render: (form) => <IpRulesField form={form} name="ip_deny" /> },
      ]}
    />
  );
}
