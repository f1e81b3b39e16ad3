// The price breakdown of spec §3: base price, additional resources, period subtotal, period
// discount, subtotal after discount, account credit used (orders only), VAT rate and amount, total.
import type { PriceBreakdownResponse } from '@debesis/contract';
import type { PriceBreakdown } from '@debesis/pricing';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../auth/session.ts';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { money, percent } from './format.ts';
import './PriceBreakdownView.css';

export type BreakdownStatus = 'checking' | 'confirmed' | 'unconfirmed';

type Shown = Pick<
  PriceBreakdown,
  | 'months'
  | 'base_price'
  | 'option_costs'
  | 'period_subtotal'
  | 'discount_rate'
  | 'period_discount'
  | 'subtotal'
  | 'vat_rate'
  | 'vat_amount'
  | 'total'
  | 'includes_vat'
  | 'reverse_charge'
  | 'outside_scope'
> & { credit_applied?: number | undefined } & Partial<
    Pick<PriceBreakdownResponse, 'vat_reason' | 'vat_number_valid' | 'vat_number_check'>
  >;

export type NoReverseCharge = 'domestic' | 'noNumber' | 'format' | 'viesInvalid' | 'viesUnavailable';

/**
 * Why a business's price is not reverse-charged, from the server's answer (the browser's own
 * preview knows nothing of the number's checks, and says nothing). Null when it is reverse-charged,
 * outside the scope of EU VAT, or the customer is not a business.
 */
export function whyNoReverseCharge(breakdown: Shown, business: boolean): NoReverseCharge | null {
  if (!business || !breakdown.includes_vat || breakdown.reverse_charge || breakdown.outside_scope)
    return null;
  if (breakdown.vat_number_check === undefined) return null;
  if (breakdown.vat_reason === 'domestic') return 'domestic';
  switch (breakdown.vat_number_check) {
    case null:
      return 'noNumber';
    case 'format':
      return breakdown.vat_number_valid === false ? 'format' : null;
    case 'vies_invalid':
      return 'viesInvalid';
    case 'vies_unavailable':
      return 'viesUnavailable';
    case 'vies_valid':
      return null;
  }
}

/** One row of a price breakdown; the total is `strong`. */
export interface BreakdownLine {
  label: string;
  value: string;
  testId: string;
  strong?: boolean;
}

/** A price breakdown's rows in order; a row that does not apply to this price is `false`. */
export function BreakdownRows({ rows }: { rows: ReadonlyArray<BreakdownLine | false> }) {
  return (
    <DefinitionList
      className="breakdown__rows"
      items={rows
        .filter((row) => row !== false)
        .map((row) => ({
          term: row.label,
          value: row.value,
          testId: row.testId,
          className: row.strong ? 'breakdown__row breakdown__row--total' : 'breakdown__row',
        }))}
    />
  );
}

export function PriceBreakdownView({
  breakdown,
  status,
  country,
  children,
}: {
  breakdown: Shown | null;
  status: BreakdownStatus;
  country: string | null;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const amount = (minor: number) => money(minor, language);
  const { user } = useSession();
  const noReverseCharge = breakdown && whyNoReverseCharge(breakdown, user?.account_type === 'business');

  return (
    <section className="card breakdown" aria-labelledby="breakdown-title" data-testid="breakdown">
      <h2 id="breakdown-title" className="breakdown__title">
        {t('planPicker.breakdown.title')}
      </h2>
      {breakdown === null ? (
        <p className="text-muted" data-testid="breakdown-invalid">
          {t('planPicker.breakdown.invalid')}
        </p>
      ) : (
        <>
          <BreakdownRows
            rows={[
              {
                label: t('planPicker.breakdown.basePrice', {
                  months: t('planPicker.months', { count: breakdown.months }),
                }),
                value: amount(breakdown.base_price),
                testId: 'breakdown-base',
              },
              {
                label: t('planPicker.breakdown.options'),
                value: amount(breakdown.option_costs),
                testId: 'breakdown-options',
              },
              {
                label: t('planPicker.breakdown.periodSubtotal'),
                value: amount(breakdown.period_subtotal),
                testId: 'breakdown-period-subtotal',
              },
              {
                label: t('planPicker.breakdown.discount', {
                  rate: percent(breakdown.discount_rate, language),
                }),
                value: amount(breakdown.period_discount === 0 ? 0 : -breakdown.period_discount),
                testId: 'breakdown-discount',
              },
              {
                label: t('planPicker.breakdown.subtotal'),
                value: amount(breakdown.subtotal),
                testId: 'breakdown-subtotal',
              },
              (breakdown.credit_applied ?? 0) > 0 && {
                label: t('planPicker.breakdown.credit'),
                value: amount(-(breakdown.credit_applied ?? 0)),
                testId: 'breakdown-credit',
              },
              {
                label: t('planPicker.breakdown.vatRate'),
                value: breakdown.includes_vat
                  ? percent(breakdown.vat_rate, language)
                  : t('planPicker.breakdown.exclVat'),
                testId: 'breakdown-vat-rate',
              },
              breakdown.includes_vat && {
                label: t('planPicker.breakdown.vatAmount'),
                value: amount(breakdown.vat_amount),
                testId: 'breakdown-vat-amount',
              },
              {
                label: breakdown.includes_vat
                  ? t('planPicker.breakdown.total')
                  : t('planPicker.breakdown.totalExclVat'),
                value: amount(breakdown.total),
                testId: 'breakdown-total',
                strong: true,
              },
            ]}
          />
          <div className="breakdown__notes">
            {!breakdown.includes_vat && (
              <p data-testid="breakdown-excl-vat-note">{t('planPicker.breakdown.exclVatNote')}</p>
            )}
            {breakdown.includes_vat && country && !breakdown.reverse_charge && !breakdown.outside_scope && (
              <p data-testid="breakdown-vat-country">{t('planPicker.breakdown.vatCountry', { country })}</p>
            )}
            {breakdown.reverse_charge && (
              <p data-testid="breakdown-reverse-charge">{t('planPicker.breakdown.reverseCharge')}</p>
            )}
            {breakdown.outside_scope && (
              <p data-testid="breakdown-outside-scope">{t('planPicker.breakdown.outsideScope')}</p>
            )}
            {noReverseCharge && (
              <p data-testid="breakdown-no-reverse-charge" data-reason={noReverseCharge}>
                {t(`planPicker.breakdown.noReverseCharge.${noReverseCharge}`)}
              </p>
            )}
          </div>
        </>
      )}
      <p className="breakdown__status" role="status" data-testid="breakdown-status" data-status={status}>
        {breakdown !== null && t(`planPicker.breakdown.${status}`)}
      </p>
      {children}
    </section>
  );
}
