// The plan-change price of spec §3: current plan value and new plan value for the days left,
// the prorated difference, and then either what is paid now (with account credit and VAT) or the
// credit a downgrade gives. Shown live on the plan change page and again on its payment page.
import type { PlanChangeQuote } from '@debesis/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { money, percent } from '../plans/format.ts';
import { BreakdownRows } from '../plans/PriceBreakdownView.tsx';

export type PlanChangeFigures = Pick<
  PlanChangeQuote,
  'remaining_days' | 'total_days' | 'current_plan_value' | 'new_plan_value' | 'prorated_difference' | 'credit'
> & {
  charge: Pick<
    PlanChangeQuote['charge'],
    'subtotal' | 'credit_applied' | 'vat_rate' | 'vat_amount' | 'total' | 'reverse_charge' | 'outside_scope'
  >;
};

export function PlanChangeBreakdown({
  figures,
  children,
}: {
  figures: PlanChangeFigures;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const amount = (minor: number) => money(minor, i18n.language);
  const { charge } = figures;
  const creditApplied = charge.credit_applied ?? 0;
  return (
    <>
      <BreakdownRows
        rows={[
          {
            label: t('planChange.remainingDays'),
            value: t('planChange.daysOf', { remaining: figures.remaining_days, count: figures.total_days }),
            testId: 'plan-change-days',
          },
          {
            label: t('planChange.currentValue'),
            value: amount(figures.current_plan_value),
            testId: 'plan-change-current-value',
          },
          {
            label: t('planChange.newValue'),
            value: amount(figures.new_plan_value),
            testId: 'plan-change-new-value',
          },
          {
            label: t('planChange.difference'),
            value: amount(figures.prorated_difference),
            testId: 'plan-change-difference',
          },
        ]}
      />
      {charge.subtotal > 0 ? (
        <div className="plan-change-charge" data-testid="plan-change-charge">
          <h3 className="plan-change-charge__title">{t('planChange.toPay')}</h3>
          <BreakdownRows
            rows={[
              {
                label: t('planChange.subtotal'),
                value: amount(charge.subtotal),
                testId: 'plan-change-subtotal',
              },
              creditApplied > 0 && {
                label: t('planChange.creditApplied'),
                value: amount(-creditApplied),
                testId: 'plan-change-credit-applied',
              },
              {
                label: t('planChange.vat', { rate: percent(charge.vat_rate, i18n.language) }),
                value: amount(charge.vat_amount),
                testId: 'plan-change-vat',
              },
              {
                label: t('planChange.total'),
                value: amount(charge.total),
                testId: 'plan-change-total',
                strong: true,
              },
            ]}
          />
          <div className="breakdown__notes">
            {charge.reverse_charge && <p>{t('planPicker.breakdown.reverseCharge')}</p>}
            {charge.outside_scope && <p>{t('planPicker.breakdown.outsideScope')}</p>}
          </div>
        </div>
      ) : figures.credit > 0 ? (
        <div className="plan-change-charge" data-testid="plan-change-credit-received">
          <BreakdownRows
            rows={[
              {
                label: t('planChange.creditReceived'),
                value: amount(figures.credit),
                testId: 'plan-change-credit',
                strong: true,
              },
            ]}
          />
          <p className="breakdown__notes">{t('planChange.creditNote')}</p>
        </div>
      ) : (
        <p className="breakdown__notes" data-testid="plan-change-nothing-to-pay">
          {t('planChange.nothingToPay')}
        </p>
      )}
      {children}
    </>
  );
}
