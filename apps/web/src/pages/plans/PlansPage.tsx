// The plan picker (spec §2 "Plans"): /auth/plans in the auth layout and /pricing in the public
// layout. The four live plans from GET /products/; choosing one (kept in ?plan=) opens its
// configurator. Loaded on demand; the cards need neither the API client nor the contract's zod
// schemas (plan-list.ts), and the configurator loads with the first chosen plan. Under the cards,
// what the two kinds of address mean: a NAT workspace is reached from outside only through its
// VPN; a dedicated IP can also publish shares directly.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import '../../i18n/plans-messages.ts';
import { isShipped } from '../../lib/features.ts';
import { readSelectedPlan } from '../../plans/selected-plan-store.ts';
import { diskSize, money } from './format.ts';
import { fetchPlanList, type PlanCardFacts } from './plan-list.ts';
import './plans.css';

const PlanConfiguratorSection = lazy(async () => ({
  default: (await import('./PlanConfiguratorSection.tsx')).PlanConfiguratorSection,
}));

function PlanCard({
  product,
  chosen,
  onChoose,
}: {
  product: PlanCardFacts;
  chosen: boolean;
  onChoose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  return (
    <li
      className={chosen ? 'card plan-card plan-card--chosen' : 'card plan-card'}
      data-testid={`plan-card-${product.id}`}
    >
      <h2 className="plan-card__name">{product.name}</h2>
      <p className="plan-card__price">
        <span className="plan-card__amount" data-testid={`plan-price-${product.id}`}>
          {money(product.price, language)}
        </span>{' '}
        <span className="text-muted">{t('planPicker.perMonth')}</span>
      </p>
      <DefinitionList
        className="plan-card__facts"
        items={[
          { term: t('planPicker.storage'), value: diskSize(product.disk_space, language) },
          { term: t('planPicker.users'), value: product.allowed_users },
          { term: t('planPicker.address'), value: t(`planPicker.addressType.${product.address}`) },
          { term: t('planPicker.support'), value: t(`planPicker.supportType.${product.support}`) },
        ]}
      />
      <button
        type="button"
        className={chosen ? 'btn btn--secondary btn--block' : 'btn btn--primary btn--block'}
        aria-pressed={chosen}
        onClick={onChoose}
        data-testid={`plan-choose-${product.id}`}
      >
        {chosen ? t('planPicker.chosen') : t('planPicker.chooseShort')}
        <span className="visually-hidden"> {product.name}</span>
      </button>
    </li>
  );
}

const ADDRESS_TYPES = ['nat', 'dedicated'] as const;

/** Each kind of address the plans on sale have, the plans with it, and what it means. */
function AddressTypes({ plans }: { plans: readonly PlanCardFacts[] }) {
  const { t, i18n } = useTranslation();
  const names = new Intl.ListFormat(i18n.language === 'en' ? 'en-GB' : i18n.language, {
    type: 'conjunction',
  });
  const kinds = ADDRESS_TYPES.map((type) => ({
    type,
    plans: plans.filter((plan) => plan.address === type).map((plan) => plan.name),
  })).filter((kind) => kind.plans.length > 0);
  return (
    <section
      className="card plans__addresses"
      aria-labelledby="plans-addresses-title"
      data-testid="plan-addresses"
    >
      <h2 id="plans-addresses-title">{t('planPicker.addresses.title')}</h2>
      <dl>
        {kinds.map((kind) => (
          <div key={kind.type} data-testid={`plan-address-${kind.type}`}>
            <dt>
              {t(`planPicker.addressType.${kind.type}`)} ({names.format(kind.plans)})
            </dt>
            <dd>{t(`planPicker.addresses.${kind.type}`)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const BLANK = '\u00a0';

/**
 * Four blank cards of a plan card's shape while the plans load, so the page below them does not
 * jump when they arrive (Lighthouse measured a layout shift of 0.28 on /pricing without them).
 */
function PlanGridPlaceholder() {
  return (
    <ul role="list" className="plan-grid" aria-hidden="true" data-testid="plan-list-placeholder">
      {[0, 1, 2, 3].map((index) => (
        <li key={index} className="card plan-card plan-card--placeholder">
          <p className="plan-card__name">{BLANK}</p>
          <p className="plan-card__price">
            <span className="plan-card__amount">{BLANK}</span>
          </p>
          <dl className="plan-card__facts">
            {[0, 1, 2, 3].map((fact) => (
              <div key={fact}>
                <dt>{BLANK}</dt>
                <dd>{BLANK}</dd>
              </div>
            ))}
          </dl>
          <span className="btn btn--secondary btn--block">{BLANK}</span>
        </li>
      ))}
    </ul>
  );
}

export function PlansPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('planPicker.title'));
  const products = useQuery({
    queryKey: ['products', 'cards'],
    queryFn: ({ signal }) => fetchPlanList(signal),
  });
  const [params, setParams] = useSearchParams();
  const [chosenByClick, setChosenByClick] = useState(false);
  const [storedProductId] = useState(() => readSelectedPlan()?.product_id ?? null);
  const chosenId = params.get('plan') ?? storedProductId;
  // The cards render in the background once the list is here: on a phone, rendering them at once
  // was one long task after the page's first paint.
  const plans = useDeferredValue(products.data);
  const live = (plans ?? []).filter((product) => product.is_active);
  const chosen = live.find((product) => product.id === chosenId) ?? null;

  function choose(id: string): void {
    setChosenByClick(true);
    setParams({ plan: id });
  }

  return (
    <div className="plans container">
      <header className="plans__header">
        <h1>{t('planPicker.title')}</h1>
        <p className="text-muted">{t('planPicker.lead')}</p>
      </header>
      {plans === undefined && !products.isError && (
        <>
          <p className="visually-hidden" role="status">
            {t('planPicker.loading')}
          </p>
          <PlanGridPlaceholder />
        </>
      )}
      {products.isError && (
        <LoadFailed retryLabel={t('planPicker.retry')} query={products} testId="plans-error">
          {t('planPicker.loadFailed')}
        </LoadFailed>
      )}
      {plans !== undefined && live.length === 0 && (
        <p className="plans__status text-muted">{t('planPicker.empty')}</p>
      )}
      {live.length > 0 && (
        <ul role="list" className="plan-grid" data-testid="plan-list">
          {live.map((product) => (
            <PlanCard
              key={product.id}
              product={product}
              chosen={product.id === chosen?.id}
              onChoose={() => choose(product.id)}
            />
          ))}
        </ul>
      )}
      {/* What "NAT" means is said in terms of the VPN: only once the VPN is on sale. */}
      {live.length > 0 && isShipped('vpn') && <AddressTypes plans={live} />}
      {chosen && (
        <Suspense
          fallback={
            <p className="plans__status text-muted" role="status">
              {t('planPicker.configure.loading')}
            </p>
          }
        >
          <PlanConfiguratorSection key={chosen.id} product={chosen.product} focusOnMount={chosenByClick} />
        </Suspense>
      )}
    </div>
  );
}
