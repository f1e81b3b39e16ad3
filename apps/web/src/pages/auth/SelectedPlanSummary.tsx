// The plan a visitor chose before registering (spec §3 "Selected plan"), shown on the register
// page so they see what they are signing up for, with the way back to change it: the plan picker
// opens it again as it was (PlanConfigurator starts from the stored plan).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { readSelectedPlan } from '../../plans/selected-plan-store.ts';
import type { SelectedPlan } from '../../plans/selected-plan.ts';
import { diskSize, money } from '../plans/format.ts';
import { useProducts } from '../plans/quote.ts';

export function SelectedPlanSummary() {
  const [plan] = useState(readSelectedPlan);
  return plan ? <PlanSummary plan={plan} /> : null;
}

function PlanSummary({ plan }: { plan: SelectedPlan }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const product = useProducts().data?.find((candidate) => candidate.id === plan.product_id);
  const months = product?.periods.find((period) => period.id === plan.period_id)?.months;
  const calculation = plan.initial_calculation;
  return (
    <aside className="selected-plan" aria-labelledby="selected-plan-title" data-testid="register-plan">
      <p>
        <span id="selected-plan-title" className="selected-plan__label">
          {t('register.plan.title')}
        </span>{' '}
        <strong data-testid="register-plan-name">{product?.name ?? plan.product_name}</strong>
      </p>
      <p className="text-muted" data-testid="register-plan-facts">
        {t('register.plan.facts', {
          disk: diskSize(plan.disk_space, language),
          users: plan.users_count,
          period: months === undefined ? plan.period_name : t('register.plan.months', { count: months }),
        })}
      </p>
      <p className="text-muted" data-testid="register-plan-total">
        {t(calculation.includes_vat ? 'register.plan.total' : 'register.plan.totalExclVat', {
          amount: money(calculation.total, language),
        })}
      </p>
      <Link to={`/auth/plans?plan=${encodeURIComponent(plan.product_id)}`} data-testid="register-plan-change">
        {t('register.plan.change')}
      </Link>
    </aside>
  );
}
