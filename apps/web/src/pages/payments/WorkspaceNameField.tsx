// The workspace's name, given at checkout (optional): sent with the new order or when its payment
// opens, and the service is created under it once paid. Empty keeps the default, the plan's name
// and a short code, which the hint shows when it is known.
import { SERVICE_NAME_MAX } from '@debesis/contract';
import { useTranslation } from 'react-i18next';
import { InputField } from '../../components/form/fields.tsx';

export function WorkspaceNameField({
  value,
  onChange,
  defaultName,
}: {
  value: string;
  onChange: (value: string) => void;
  /** What the service is called without a name, when known (the order exists). */
  defaultName?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <InputField
      id="payment-workspace-name"
      label={t('payment.workspaceName')}
      hint={
        defaultName
          ? t('payment.workspaceNameDefault', { name: defaultName })
          : t('payment.workspaceNameHint')
      }
      optional
      maxLength={SERVICE_NAME_MAX}
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid="payment-workspace-name"
    />
  );
}

/** The name to send: trimmed, or none. */
export function workspaceNameOf(value: string): { name: string } | Record<string, never> {
  const name = value.trim();
  return name ? { name } : {};
}
