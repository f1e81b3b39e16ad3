// The new-link dialog: what to share (a Samba share, an NFS export, or a file or folder picked in
// the storage), the spec's expiry choices, and the optional password, download limit and address
// rules. The address lists are checked line by line as they are typed, with the contract's rule;
// the whole request with the contract's schema on submit, and the server's field errors land on
// their fields too.
import {
  SHARE_LINK_EXPIRIES,
  SHARE_LINK_TYPES,
  createShareLinkRequestSchema,
  errorText,
  ipRuleProblem,
  isMessageCode,
  type CreateShareLinkRequest,
  type Language,
  type ShareLink,
  type ShareLinkExpiry,
  type ShareLinkType,
} from '@debesis/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../api/client.ts';
import { InputField, SelectField } from '../../../components/form/fields.tsx';
import { shareLinksApi } from '../../../workspace/share-links-api.ts';
import { useNfsExports } from '../../../workspace/nfs-api.ts';
import { useSambaShares } from '../../../workspace/samba-api.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { FormDialog } from '../resource-parts.tsx';
import { StoragePicker } from './StoragePicker.tsx';

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

type Field = 'target' | 'expiry' | 'label' | 'password' | 'download_limit' | 'ip_allow' | 'ip_deny';

export function ShareLinkCreateDialog({
  serviceId,
  onClose,
  onCreated,
}: {
  serviceId: string;
  onClose: () => void;
  onCreated: (link: ShareLink) => void;
}) {
  const { t, i18n } = useTranslation(['shareLinksTab', 'workspace']);
  const language = (i18n.language === 'lt' ? 'lt' : 'en') satisfies Language;
  const message = (code: string) => (isMessageCode(code) ? errorText(language, code) : code);
  const [type, setType] = useState<ShareLinkType>('samba');
  const [target, setTarget] = useState('');
  const [expiry, setExpiry] = useState<ShareLinkExpiry>('7d');
  const [label, setLabel] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [limit, setLimit] = useState('');
  const [allow, setAllow] = useState('');
  const [deny, setDeny] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const shares = useSambaShares(serviceId);
  const exports = useNfsExports(serviceId);
  const create = useWorkspaceMutation(
    (body: CreateShareLinkRequest) => shareLinksApi.create(serviceId, body),
    (link) => onCreated(link),
  );

  /** The first bad line of an address list, as "Line n: why", while it is typed. */
  const linesProblem = (text: string) => {
    const all = text.split('\n');
    for (const [index, line] of all.entries()) {
      const problem = line.trim() === '' ? undefined : ipRuleProblem(line.trim());
      if (problem) return t('form.line', { line: index + 1, message: message(problem) });
    }
    return undefined;
  };

  const listError = (field: 'ip_allow' | 'ip_deny', text: string) => linesProblem(text) ?? errors[field];
  const serverErrors = (error: unknown): Partial<Record<Field, string>> => {
    if (!isApiError(error)) return {};
    const found: Partial<Record<Field, string>> = {};
    for (const [key, text] of Object.entries(error.fieldErrors)) {
      const [field = '', index] = key.split('.');
      found[field as Field] =
        index === undefined ? text : t('form.line', { line: Number(index) + 1, message: text });
    }
    return found;
  };
  const shown = { ...serverErrors(create.error), ...errors };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: CreateShareLinkRequest = {
      type,
      target,
      expiry,
      ...(label.trim() ? { label: label.trim() } : {}),
      ...(password ? { password } : {}),
      download_limit: limit.trim() === '' ? null : Number(limit),
      ip_allow: lines(allow),
      ip_deny: lines(deny),
    };
    const parsed = createShareLinkRequestSchema.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const [field, index] = issue.path as [Field, number | undefined];
        const text = message(issue.message);
        found[field] ??= index === undefined ? text : t('form.line', { line: index + 1, message: text });
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(body);
  }

  const targetOptions =
    type === 'samba'
      ? (shares.data?.shares.map((share) => share.name) ?? [])
      : (exports.data?.exports.map((entry) => entry.path) ?? []);
  return (
    <FormDialog
      title={t('form.title')}
      onClose={onClose}
      onSubmit={submit}
      change={create}
      failure={t('createFailed')}
      submitLabel={t('form.submit')}
      testIds={{ dialog: 'share-link-dialog', error: 'share-link-error', submit: 'share-link-submit' }}
    >
      <SelectField
        id="share-link-type"
        label={t('form.type')}
        value={type}
        onChange={(event) => {
          setType(event.target.value as ShareLinkType);
          setTarget('');
        }}
        data-testid="share-link-type"
      >
        {SHARE_LINK_TYPES.map((each) => (
          <option key={each} value={each}>
            {t(`type.${each}`)}
          </option>
        ))}
      </SelectField>
      {type === 'path' ? (
        <div className="field">
          <StoragePicker serviceId={serviceId} chosen={target} onChoose={setTarget} />
          {shown.target && (
            <p className="field__error" role="alert" data-testid="share-link-target-error">
              {shown.target}
            </p>
          )}
        </div>
      ) : (
        <SelectField
          id="share-link-target"
          label={type === 'samba' ? t('form.share') : t('form.export')}
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          error={shown.target}
          hint={
            targetOptions.length === 0
              ? type === 'samba'
                ? t('form.noShares')
                : t('form.noExports')
              : undefined
          }
          data-testid="share-link-target"
        >
          <option value="">{t('form.choose')}</option>
          {targetOptions.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField
        id="share-link-expiry"
        label={t('form.expiry')}
        value={expiry}
        onChange={(event) => setExpiry(event.target.value as ShareLinkExpiry)}
        error={shown.expiry}
        data-testid="share-link-expiry"
      >
        {SHARE_LINK_EXPIRIES.map((each) => (
          <option key={each} value={each}>
            {t(`form.expiries.${each}`)}
          </option>
        ))}
      </SelectField>
      <InputField
        id="share-link-label"
        label={t('form.label')}
        hint={t('form.labelHint')}
        optional
        value={label}
        maxLength={100}
        onChange={(event) => setLabel(event.target.value)}
        error={shown.label}
        data-testid="share-link-label"
      />
      <InputField
        id="share-link-password"
        label={t('form.password')}
        hint={t('form.passwordHint')}
        optional
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        error={shown.password}
        data-testid="share-link-password"
      />
      <button type="button" className="btn btn--ghost" onClick={() => setShowPassword((now) => !now)}>
        {showPassword ? t('form.hide') : t('form.show')}
      </button>
      <InputField
        id="share-link-limit"
        label={t('form.limit')}
        hint={t('form.limitHint')}
        optional
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        value={limit}
        onChange={(event) => setLimit(event.target.value)}
        error={
          limit.trim() !== '' && !(Number.isInteger(Number(limit)) && Number(limit) >= 1)
            ? message('share_download_limit_invalid')
            : shown.download_limit
        }
        data-testid="share-link-limit"
      />
      {(
        [
          ['ip_allow', 'allow', allow, setAllow],
          ['ip_deny', 'deny', deny, setDeny],
        ] as const
      ).map(([field, name, value, set]) => {
        const error = listError(field, value);
        return (
          <div className="field" key={field}>
            <label htmlFor={`share-link-${name}`} className="field__label">
              {t(`form.${name}`)}
            </label>
            <textarea
              id={`share-link-${name}`}
              className="input"
              rows={3}
              spellCheck={false}
              autoCapitalize="off"
              value={value}
              onChange={(event) => set(event.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={`share-link-${name}-hint`}
              data-testid={`share-link-ip-${name}`}
            />
            <p id={`share-link-${name}-hint`} className="field__hint">
              {t(`form.${name}Hint`)}
            </p>
            {error && (
              <p className="field__error" role="alert" data-testid={`share-link-ip-${name}-error`}>
                {error}
              </p>
            )}
          </div>
        );
      })}
    </FormDialog>
  );
}
