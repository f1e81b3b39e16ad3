// The controls of a plan's configuration, shared by the plan picker, the plan change page and the
// extension page: disk space and users (with their limits and the bandwidth that follows from the
// disk, spec §9) and the billing period with its discount.
import type { Product, ProductConfig } from '@debesis/contract';
import { bandwidthFor } from '@debesis/pricing';
import { useTranslation } from 'react-i18next';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { InputField } from '../../components/form/fields.tsx';
import '../../i18n/plans-messages.ts';
import { diskSize, money, percent } from './format.ts';
import { toNumber } from './selection-form.ts';

/** A field of the form hook (`form.field(name)`): its registration and its message. */
type FormField = UseFormRegisterReturn & { error: string | undefined };

export function ResourceFields({
  idPrefix,
  config,
  options,
  disk: diskField,
  users: usersField,
  diskValue,
}: {
  /** Prefix of the inputs' ids (and so of their error's test id, `${idPrefix}-disk-error`). */
  idPrefix: string;
  config: Pick<ProductConfig, 'disk_space' | 'users'>;
  /** The plan's extra units and their monthly prices, shown beside the fields (before VAT). */
  options: Product['options'];
  disk: FormField;
  users: FormField;
  /** The disk field's text as typed, for the bandwidth that follows from it. */
  diskValue: string;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const disk = toNumber(diskValue);
  const validDisk = Number.isSafeInteger(disk) ? disk : null;
  const diskUnit = options.find((option) => option.type === 'disk_space');
  const usersUnit = options.find((option) => option.type === 'users');
  return (
    <>
      <InputField
        id={`${idPrefix}-disk`}
        label={t('planPicker.configure.disk')}
        type="number"
        inputMode="numeric"
        min={config.disk_space.min}
        max={config.disk_space.max}
        step={config.disk_space.step}
        {...diskField}
        hint={
          <>
            {t('planPicker.configure.diskHint', {
              included: diskSize(config.disk_space.min, language),
              step: diskSize(config.disk_space.step, language),
              max: diskSize(config.disk_space.max, language),
            })}
            {diskUnit && (
              <span data-testid="plan-disk-price">
                {' '}
                {t('planPicker.configure.diskPrice', {
                  step: diskSize(diskUnit.value, language),
                  price: money(diskUnit.price, language),
                })}
              </span>
            )}
            {validDisk !== null && (
              <span className="configurator__bandwidth" data-testid="plan-bandwidth">
                {' '}
                {t('planPicker.configure.bandwidth', { amount: bandwidthFor(validDisk) })}
              </span>
            )}
          </>
        }
        data-testid="plan-disk"
      />
      <InputField
        id={`${idPrefix}-users`}
        label={t('planPicker.configure.users')}
        type="number"
        inputMode="numeric"
        min={config.users.min}
        max={config.users.max}
        step={config.users.step}
        {...usersField}
        hint={
          <>
            {t('planPicker.configure.usersHint', { included: config.users.min, max: config.users.max })}
            {usersUnit && (
              <span data-testid="plan-users-price">
                {' '}
                {t('planPicker.configure.usersPrice', {
                  count: usersUnit.value,
                  price: money(usersUnit.price, language),
                })}
              </span>
            )}
          </>
        }
        data-testid="plan-users"
      />
    </>
  );
}

/** The billing periods as radio cards with their discount. */
export function PeriodChoice({
  idPrefix,
  periods,
  value,
  onChange,
  error,
}: {
  idPrefix: string;
  periods: ProductConfig['periods'];
  value: string;
  onChange: (periodId: string) => void;
  error?: string | undefined;
}) {
  const { t, i18n } = useTranslation();
  const errorId = `${idPrefix}-period-error`;
  return (
    <fieldset className="field period-options" aria-describedby={error ? errorId : undefined}>
      <legend className="field__label">{t('planPicker.configure.period')}</legend>
      <div className="period-options__list">
        {periods.map((period) => (
          <label key={period.id} className="period-option">
            <input
              type="radio"
              name={`${idPrefix}-period`}
              value={period.id}
              checked={value === period.id}
              onChange={() => onChange(period.id)}
              data-testid={`plan-period-${period.id}`}
            />
            <span className="period-option__months">{t('planPicker.months', { count: period.months })}</span>
            <span className={period.discount > 0 ? 'badge badge--success' : 'period-option__none'}>
              {period.discount > 0
                ? t('planPicker.configure.discount', { rate: percent(period.discount, i18n.language) })
                : t('planPicker.configure.noDiscount')}
            </span>
          </label>
        ))}
      </div>
      {error && (
        <p id={errorId} className="field__error" data-testid="plan-period-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
