// The configurator of one plan: disk space, users and billing period with the live price
// breakdown, and "Continue", which keeps the selected plan (spec §3) in browser storage.
import type { Product, ProductConfig } from '@debesis/contract';
import {
  bandwidthFor,
  initialCalculation,
  selectedOptionsFor,
  validateSelection,
  type PlanSelection,
} from '@debesis/pricing';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NEW_PAYMENT_PATH } from '../../auth/pending-plan.ts';
import { useSession } from '../../auth/session.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useServerFieldErrors } from '../../forms/server-errors.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import { i18n as appI18n } from '../../i18n/i18n.ts';
import { readSelectedPlan, storeSelectedPlan } from '../../plans/selected-plan-store.ts';
import type { SelectedPlan } from '../../plans/selected-plan.ts';
import { countryName } from './format.ts';
import { PeriodChoice, ResourceFields } from './PlanFields.tsx';
import { PriceBreakdownView, type BreakdownStatus } from './PriceBreakdownView.tsx';
import { localBreakdown, useServerQuote, useVatCustomer } from './quote.ts';
import { selectionFormSchema } from './selection-form.ts';

const SELECTION_FIELDS = ['disk_space', 'users_count', 'period_id'] as const;

/** Where the configurator starts: the stored plan if it is for this product, else the plan's defaults. */
function initialSelection(product: Product, config: ProductConfig): PlanSelection {
  const stored = readSelectedPlan();
  if (stored?.product_id === product.id && validateSelection(product, stored).length === 0) {
    return { disk_space: stored.disk_space, users_count: stored.users_count, period_id: stored.period_id };
  }
  return {
    disk_space: config.disk_space.default,
    users_count: config.users.default,
    period_id: config.default_period_id ?? config.periods[0]?.id ?? null,
  };
}

/** The stored names are the spec's English ones ("MINI — 50 GB Storage, 5 Users", "12 months"). */
function storedNames(product: Product, selection: PlanSelection, months: number) {
  const english = appI18n.getFixedT('en');
  return {
    product_name: english('planPicker.displayName', {
      name: product.name,
      disk: selection.disk_space,
      count: selection.users_count,
    }),
    period_name: english('planPicker.months', { count: months }),
  };
}

export function PlanConfigurator({
  product,
  config,
  focusOnMount,
}: {
  product: Product;
  config: ProductConfig;
  focusOnMount: boolean;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigate = useNavigate();
  const session = useSession();
  const idPrefix = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  const [start] = useState(() => initialSelection(product, config));
  const schema = useMemo(() => selectionFormSchema(product), [product]);
  const form = useContractForm({
    schema,
    defaultValues: {
      disk_space: String(start.disk_space),
      users_count: String(start.users_count),
      period_id: start.period_id ?? '',
    },
    mode: 'onChange',
  });

  useEffect(() => {
    if (focusOnMount) headingRef.current?.focus();
  }, [focusOnMount]);

  // The quote follows the values as they are typed; the fields' messages come from the same schema.
  const values = form.watch();
  const parsed = schema.safeParse(values);
  const valid = parsed.success;
  const selection: PlanSelection = parsed.success
    ? parsed.data
    : { disk_space: Number.NaN, users_count: Number.NaN, period_id: values.period_id };
  const { customer, settled } = useVatCustomer();
  const local = valid ? localBreakdown(product, selection, customer) : null;
  const server = useServerQuote(product, selection, customer, valid && settled);
  useServerFieldErrors(form, [server.invalid]);
  // The server's answer wins; until it comes, the browser's own (the same function) is shown.
  const shown = server.invalid ? null : (server.breakdown ?? local);
  const status: BreakdownStatus =
    server.breakdown !== null ? 'confirmed' : server.failed ? 'unconfirmed' : 'checking';
  // Signed in, the server taxes the country its evidence shows (billing address, IP), which may
  // not be the profile's; its answer names it.
  const vatCountry = server.breakdown?.vat_evidence?.country ?? customer?.country ?? null;

  const otherServerError =
    server.invalid && !SELECTION_FIELDS.some((field) => server.invalid?.fieldErrors[field])
      ? server.invalid.message
      : null;

  function onContinue(): void {
    if (!shown || !valid) return;
    const period = product.periods.find((candidate) => candidate.id === selection.period_id);
    if (!period) return;
    const plan: SelectedPlan = {
      product_id: product.id,
      disk_space: selection.disk_space,
      bandwidth: bandwidthFor(selection.disk_space),
      users_count: selection.users_count,
      period_id: period.id,
      selected_options: selectedOptionsFor(product, selection),
      ...storedNames(product, selection, period.months),
      initial_calculation: initialCalculation(shown),
    };
    storeSelectedPlan(plan);
    // Signed in: straight to paying for it; a guest signs up first (the pending-plan check then
    // turns the plan into an order, spec §4 "After login").
    void navigate(session.isAuthenticated ? NEW_PAYMENT_PATH : '/auth/register');
  }

  return (
    <section className="configurator" aria-labelledby="configurator-title" data-testid="plan-configurator">
      <h2 id="configurator-title" className="configurator__title" tabIndex={-1} ref={headingRef}>
        {t('planPicker.configure.title', { name: product.name })}
      </h2>
      <div className="configurator__layout">
        <div className="card configurator__form">
          {otherServerError && (
            <FormAlert tone="error" testId="plan-error">
              {otherServerError}
            </FormAlert>
          )}
          <ResourceFields
            idPrefix={idPrefix}
            config={config}
            options={product.options}
            disk={form.field('disk_space')}
            users={form.field('users_count')}
            diskValue={values.disk_space}
          />
          <PeriodChoice
            idPrefix={idPrefix}
            periods={config.periods}
            value={values.period_id}
            onChange={(periodId) => form.setValue('period_id', periodId, { shouldValidate: true })}
            error={form.errorText('period_id')}
          />
        </div>

        <PriceBreakdownView
          breakdown={shown}
          status={settled ? status : 'checking'}
          country={vatCountry ? countryName(vatCountry, language) : null}
        >
          <button
            type="button"
            className="btn btn--primary btn--block btn--lg"
            onClick={onContinue}
            disabled={!shown || !valid || session.isLoading}
            data-testid="plan-continue"
          >
            {t('planPicker.continue')}
          </button>
        </PriceBreakdownView>
      </div>
    </section>
  );
}
