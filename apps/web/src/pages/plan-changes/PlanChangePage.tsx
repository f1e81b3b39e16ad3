// /dashboard/plans/change?service={id} (spec §2 plans/change, §5 plan change rule): pick a service,
// then another plan or other resources on the service's own billing period, see what the change
// costs now (POST /plan-changes/quote, debounced), confirm a downgrade, and make the change
// (POST /plan-changes/). An upgrade continues to its payment page; a downgrade or an equal-price
// change applies at once and the plans list says so.
//
// A larger disk than the workspace's node has room for now (the quote's `room`) is said before
// any money, as for a new order: how much more the node can take, the largest size of the chosen
// plan that fits (one click picks it), or paying now and waiting for room (`wait_for_room`).
import type {
  PlanChange,
  PlanChangeQuoteRequest,
  PlanChangeRoom,
  Product,
  ServiceSummary,
} from '@debesis/contract';
import { defaultSelection } from '@debesis/pricing';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { serverMessage } from '../../api/api-error.ts';
import { isApiError } from '../../api/client.ts';
import { CheckboxField, FormAlert, SelectField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { fieldErrorText } from '../../forms/messages.ts';
import { useServerFieldErrors } from '../../forms/server-errors.ts';
import { useContractForm } from '../../forms/use-contract-form.ts';
import '../../i18n/plan-changes-messages.ts';
import {
  ACCOUNT_CREDIT_QUERY_KEY,
  createPlanChange,
  quotePlanChange,
} from '../../payments/plan-changes-api.ts';
import { paymentPagePaths } from '../../payments/payments-api.ts';
import {
  findService,
  isServiceLapsed,
  SERVICES_QUERY_KEY,
  useServicesOverview,
} from '../../services/services-api.ts';
import { diskSize, formatDate, money } from '../plans/format.ts';
import { Loading, PageProblem } from '../payments/payment-parts.tsx';
import { ResourceFields } from '../plans/PlanFields.tsx';
import { QUOTE_DEBOUNCE_MS, useDebouncedValue, useProductConfig, useProducts } from '../plans/quote.ts';
import '../plans/plans.css';
import { selectionFormSchema } from '../plans/selection-form.ts';
import { PlanChangeBreakdown } from './PlanChangeBreakdown.tsx';
import { configurationText, periodText } from './plan-facts.ts';
import { PLAN_CHANGED_STATE, type PlanChangedNotice } from './plan-changed-notice.ts';
import './plan-changes.css';

type ResourceField = 'disk_space' | 'users_count';
const RESOURCE_FIELDS: ReadonlySet<string> = new Set<ResourceField>(['disk_space', 'users_count']);

/** A path inside the app the server named, or `fallback` (never another site). */
function appPath(path: string, fallback: string): string {
  return path.startsWith('/') && !path.startsWith('//') ? path : fallback;
}

/** The quote of exactly `request`, asked once it has rested for QUOTE_DEBOUNCE_MS. */
function usePlanChangeQuote(request: PlanChangeQuoteRequest | null) {
  const key = request === null ? null : JSON.stringify(request);
  const debounced = useDebouncedValue(key, QUOTE_DEBOUNCE_MS);
  const current = key !== null && debounced === key;
  const query = useQuery({
    queryKey: ['plan-change-quote', key],
    queryFn: current && request ? () => quotePlanChange(request) : skipToken,
    retry: false,
    // Quotes move with the day and the account's credit: never reuse an old one.
    staleTime: 0,
    gcTime: 0,
  });
  return {
    quote: current ? (query.data ?? null) : null,
    error: current ? query.error : null,
    checking: key !== null && (!current || query.isFetching),
  };
}

function ExpiredNotice({ service }: { service: ServiceSummary }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--warning plan-change__expired" role="alert" data-testid="plan-change-expired">
      <p>{t('planChange.expired')}</p>
      <Link
        to={paymentPagePaths.extend(service.id)}
        className="btn btn--primary"
        data-testid="plan-change-extend"
      >
        {t('planChange.extend')}
      </Link>
    </div>
  );
}

/** The node has no room for the disk chosen: a smaller size that fits, or pay and wait. */
function RoomNotice({
  room,
  offerLargest,
  onChooseLargest,
}: {
  room: PlanChangeRoom;
  /** Whether the largest size that fits is a change at all (not the workspace as it is). */
  offerLargest: boolean;
  onChooseLargest: (diskSpace: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const largest = room.largest_disk_space;
  return (
    <div className="alert alert--warning plan-change__room" role="status" data-testid="plan-change-room">
      <p data-testid="plan-change-room-title">
        {room.room_gb > 0
          ? t('planChange.roomTitle', { size: diskSize(room.room_gb, i18n.language) })
          : t('planChange.roomNone')}
      </p>
      <p data-testid="plan-change-room-smaller">
        {largest !== null && offerLargest
          ? t('planChange.roomLargest', { size: diskSize(largest, i18n.language) })
          : t('planChange.roomNoSize')}
      </p>
      {largest !== null && offerLargest && (
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => onChooseLargest(largest)}
          data-testid="plan-change-room-choose"
        >
          {t('planChange.roomChooseLargest', { size: diskSize(largest, i18n.language) })}
        </button>
      )}
      <p>{t('planChange.roomWait')}</p>
    </div>
  );
}

function ProductChoice({
  products,
  currentId,
  value,
  onChange,
}: {
  products: Product[];
  currentId: string;
  value: string | null;
  onChange: (product: Product) => void;
}) {
  const { t, i18n } = useTranslation();
  const name = useId();
  return (
    <fieldset className="field plan-options">
      <legend className="field__label">{t('planChange.planLegend')}</legend>
      <div className="plan-options__list">
        {products.map((product) => (
          <label key={product.id} className="plan-option">
            <input
              type="radio"
              name={name}
              value={product.id}
              checked={value === product.id}
              onChange={() => onChange(product)}
              data-testid={`plan-change-product-${product.id}`}
            />
            <span className="plan-option__name">{product.name}</span>
            <span className="plan-option__price text-muted">
              {t('planChange.perMonth', { amount: money(product.price, i18n.language) })}
            </span>
            {product.id === currentId && (
              <span className="badge badge--info plan-option__current">{t('planChange.currentBadge')}</span>
            )}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function PlanChangeForm({ service, products }: { service: ServiceSummary; products: Product[] }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirmRef = useRef<HTMLInputElement>(null);

  const [productId, setProductId] = useState<string | null>(service.product_id);
  const [confirmed, setConfirmed] = useState(false);
  const [confirmMissing, setConfirmMissing] = useState(false);

  const product = products.find((candidate) => candidate.id === productId) ?? null;
  const config = useProductConfig(product?.id ?? null);
  // The billing period is the service's; whether the new plan offers it is the server's to say.
  const schema = useMemo(() => selectionFormSchema(product, { period: false }), [product]);
  const form = useContractForm({
    schema,
    defaultValues: {
      disk_space: String(service.disk_space),
      users_count: String(service.users_total),
      period_id: service.period_id,
    },
    mode: 'onChange',
  });
  const values = form.watch();
  const parsed = schema.safeParse(values);
  const selection = product && parsed.success ? parsed.data : null;
  const unchanged =
    product?.id === service.product_id &&
    selection?.disk_space === service.disk_space &&
    selection.users_count === service.users_total;
  const request: PlanChangeQuoteRequest | null =
    product && selection && !unchanged
      ? {
          service_id: service.id,
          product_id: product.id,
          disk_space: selection.disk_space,
          users_count: selection.users_count,
        }
      : null;
  const { quote, error: quoteError, checking } = usePlanChangeQuote(request);

  const submit = useMutation({
    mutationFn: (body: PlanChangeQuoteRequest & { confirm_downgrade: boolean; wait_for_room: boolean }) =>
      createPlanChange(body),
    onSuccess: async (change: PlanChange) => {
      if (change.status === 'awaiting_payment') {
        await navigate(appPath(change.redirect_url, paymentPagePaths.planChange(change.id)));
        return;
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: SERVICES_QUERY_KEY }),
        queryClient.invalidateQueries({ queryKey: ACCOUNT_CREDIT_QUERY_KEY }),
      ]);
      // Nothing to pay but waiting for room: its page says so (the plans list would say changed).
      if (change.status === 'awaiting_room') {
        await navigate(paymentPagePaths.planChange(change.id));
        return;
      }
      const notice: PlanChangedNotice = {
        from: change.current.product_name,
        plan: change.target.product_name,
        disk_space: change.target.disk_space,
        users_count: change.target.users_count,
        credit: change.credit,
      };
      await navigate(appPath(change.redirect_url, '/dashboard/plans'), {
        state: { [PLAN_CHANGED_STATE]: notice },
      });
    },
    onError: (error) => {
      if (isApiError(error) && error.detail === 'downgrade_confirmation_required') setConfirmMissing(true);
    },
  });
  const submitError = submit.error;
  // The quote's refusal wins over the last submit's where both name a field.
  useServerFieldErrors(form, [submitError, quoteError]);
  // A plan's rules apply to the values it starts from as well (a service bought under other
  // rules): each new schema checks the form again, once its resolver has it.
  const { trigger } = form;
  useEffect(() => {
    void trigger();
  }, [schema, trigger]);

  function chooseProduct(next: Product): void {
    setProductId(next.id);
    // Back to the current plan: start from what the service has; another plan: from its defaults.
    const start =
      next.id === service.product_id
        ? { disk_space: service.disk_space, users_count: service.users_total }
        : defaultSelection(next);
    form.reset({
      disk_space: String(start.disk_space),
      users_count: String(start.users_count),
      period_id: service.period_id,
    });
    submit.reset();
  }

  /** The field's message; for an empty field, what it expects rather than only that it is missing. */
  function fieldError(field: ResourceField, message: string | undefined): string | undefined {
    if (
      message &&
      form.getFieldState(field).error?.type !== 'server' &&
      values[field].trim() === '' &&
      config.data
    ) {
      return field === 'disk_space'
        ? t('planChange.diskEmpty', {
            min: diskSize(config.data.disk_space.min, language),
            max: diskSize(config.data.disk_space.max, language),
            step: diskSize(config.data.disk_space.step, language),
          })
        : t('planChange.usersEmpty', { min: config.data.users.min, max: config.data.users.max });
    }
    return message;
  }

  /** A field of the form; a new choice makes the last refusal of the change stale. */
  function resourceField(field: ResourceField) {
    const registered = form.field(field, { onChange: () => submit.reset() });
    return { ...registered, error: fieldError(field, registered.error) };
  }

  /** A refusal that is not about one field, in the server's words when it gave them. */
  function formProblem(error: unknown, fallback: string): string | null {
    if (error === null) return null;
    if (!isApiError(error)) return fallback;
    if (error.detail === 'downgrade_confirmation_required' || error.detail === 'service_expired') return null;
    const fields = Object.keys(error.fieldErrors);
    const elsewhere = fields.filter((field) => !RESOURCE_FIELDS.has(field));
    // Shown next to the disk and users fields.
    if (fields.length > 0 && elsewhere.length === 0) return null;
    // A field the form does not show (the service's billing period on the new plan): its words.
    if (elsewhere.length > 0) return elsewhere.map((field) => error.fieldErrors[field]).join(' ');
    return error.status >= 400 && error.status < 500 ? (serverMessage(error) ?? fallback) : fallback;
  }

  const expired = [quoteError, submitError].some(
    (error) => isApiError(error) && error.detail === 'service_expired',
  );
  if (expired) return <ExpiredNotice service={service} />;

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    if (!request || !quote) return;
    if (quote.requires_confirmation && !confirmed) {
      setConfirmMissing(true);
      confirmRef.current?.focus();
      return;
    }
    submit.mutate({
      ...request,
      confirm_downgrade: quote.requires_confirmation && confirmed,
      // Shown the room notice and the pay-and-wait button: that is the customer's choice.
      wait_for_room: roomShort !== null,
    });
  }

  function chooseDisk(diskSpace: number): void {
    form.setValue('disk_space', String(diskSpace), { shouldValidate: true, shouldDirty: true });
    submit.reset();
  }

  const roomShort = quote?.room && !quote.room.fits_now ? quote.room : null;
  const quoteProblem = formProblem(quoteError, t('planChange.quoteFailed'));
  const submitProblem = formProblem(submitError, t('planChange.failed'));
  let quoteContent: ReactNode;
  if (!product) quoteContent = <Refusal text={t('planChange.selectPlan')} testId="plan-change-select-plan" />;
  else if (unchanged)
    quoteContent = <Refusal text={t('planChange.sameConfiguration')} testId="plan-change-same" />;
  else if (!parsed.success)
    // The price waits for a valid choice: say so and what is wrong, not an empty card.
    quoteContent = (
      <Refusal
        text={[
          t('planChange.invalidTarget'),
          ...(['disk_space', 'users_count'] as const).flatMap((field) => {
            const issue = parsed.error.issues.find((candidate) => candidate.path[0] === field);
            const message = fieldError(field, fieldErrorText(t, issue?.message));
            return message
              ? [`${field === 'disk_space' ? t('planFacts.disk') : t('planFacts.users')}: ${message}`]
              : [];
          }),
        ].join(' ')}
        testId="plan-change-invalid"
      />
    );
  else if (quote) quoteContent = <PlanChangeBreakdown figures={quote} />;
  else if (quoteProblem) quoteContent = <Refusal text={quoteProblem} testId="plan-change-quote-error" />;
  else if (checking) quoteContent = <p className="text-muted">{t('planChange.quoteChecking')}</p>;

  return (
    <form className="configurator__layout plan-change__layout" onSubmit={onSubmit} noValidate>
      <div className="card configurator__form">
        <ProductChoice
          products={products}
          currentId={service.product_id}
          value={product?.id ?? null}
          onChange={chooseProduct}
        />
        {product && config.isPending && <p className="text-muted">{t('planChange.configLoading')}</p>}
        {product && config.isError && (
          <LoadFailed retryLabel={t('planFacts.retry')} query={config} testId="plan-change-config-error">
            {t('planChange.configLoadFailed')}
          </LoadFailed>
        )}
        {product && config.isSuccess && (
          <ResourceFields
            idPrefix="plan-change"
            config={config.data}
            options={product.options}
            disk={resourceField('disk_space')}
            users={resourceField('users_count')}
            diskValue={values.disk_space}
          />
        )}
        <p className="text-muted plan-change__period" data-testid="plan-change-period">
          {t('planChange.period', {
            period: periodText(t, products, service.product_id, service.period_id),
            date: formatDate(service.valid_until, language),
          })}
        </p>
      </div>

      <section className="card breakdown plan-change__quote" aria-labelledby="plan-change-quote-title">
        <h2 id="plan-change-quote-title" className="breakdown__title">
          {t('planChange.quoteTitle')}
        </h2>
        <div
          className="plan-change__figures"
          aria-live="polite"
          aria-busy={checking}
          data-testid="plan-change-quote"
        >
          {quoteContent}
        </div>
        {quote?.requires_confirmation && (
          <div className="plan-change__confirm">
            <CheckboxField
              id="plan-change-confirm"
              ref={confirmRef}
              label={t('planChange.confirmDowngrade')}
              checked={confirmed}
              onChange={(event) => {
                setConfirmed(event.target.checked);
                if (event.target.checked) setConfirmMissing(false);
              }}
              aria-invalid={confirmMissing || undefined}
              aria-errormessage={confirmMissing ? 'plan-change-confirm-error' : undefined}
              data-testid="plan-change-confirm"
            />
            {confirmMissing && (
              <p
                id="plan-change-confirm-error"
                className="field__error"
                data-testid="plan-change-confirm-error"
              >
                {t('planChange.confirmRequired')}
              </p>
            )}
          </div>
        )}
        {roomShort && (
          <RoomNotice
            room={roomShort}
            offerLargest={
              roomShort.largest_disk_space !== null &&
              (product?.id !== service.product_id || roomShort.largest_disk_space !== service.disk_space)
            }
            onChooseLargest={chooseDisk}
          />
        )}
        {submitProblem && (
          <FormAlert tone="error" testId="plan-change-error">
            {submitProblem}
          </FormAlert>
        )}
        <button
          type="submit"
          className="btn btn--primary btn--block btn--lg"
          disabled={!quote || submit.isPending || submit.isSuccess}
          aria-busy={submit.isPending}
          data-testid="plan-change-submit"
        >
          {submit.isPending || submit.isSuccess
            ? t('planChange.submitting')
            : quote && quote.charge.subtotal > 0
              ? t(roomShort ? 'planChange.payAndWait' : 'planChange.submitUpgrade')
              : t(roomShort ? 'planChange.waitAndChange' : 'planChange.submitChange')}
        </button>
      </section>
    </form>
  );
}

function Refusal({ text, testId }: { text: string; testId: string }) {
  return (
    <p className="plan-change__refusal" data-testid={testId}>
      {text}
    </p>
  );
}

function ServicePicker({
  services,
  value,
  onChange,
}: {
  services: ServiceSummary[];
  value: string | null;
  onChange: (serviceId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <SelectField
      id="plan-change-service"
      label={t('planChange.service')}
      value={value ?? ''}
      onChange={(event) => onChange(event.target.value)}
      className="plan-change__service"
      data-testid="plan-change-service"
    >
      {value === null && (
        <option value="" disabled>
          {t('planChange.chooseService')}
        </option>
      )}
      {services.map((service) => (
        <option key={service.id} value={service.id}>
          {service.name} ({service.plan})
        </option>
      ))}
    </SelectField>
  );
}

/** A problem with the page's service, with the way back to the plans list. */
function Problem({ message, testId, children }: { message: string; testId: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageProblem message={message} testId={testId}>
      {children}
      <Link to="/dashboard/plans" className="btn btn--ghost">
        {t('planFacts.toPlans')}
      </Link>
    </PageProblem>
  );
}

export function PlanChangePage() {
  const { t, i18n } = useTranslation();
  useDocumentTitle(t('planChange.title'));
  const [params, setParams] = useSearchParams();
  const overview = useServicesOverview();
  const products = useProducts();
  const services = overview.data?.services ?? [];
  const requested = params.get('service');
  // Only one service: that is the one, asked for or not.
  const serviceId = requested ?? (services.length === 1 ? (services[0]?.id ?? null) : null);
  const service = findService(services, serviceId);
  const live = (products.data ?? []).filter((product) => product.is_active);

  let content: ReactNode;
  if (overview.isPending || (service && products.isPending))
    content = <Loading text={t('planFacts.servicesLoading')} />;
  else if (overview.isError)
    content = (
      <Problem message={t('planFacts.servicesLoadFailed')} testId="plan-change-load-error">
        <button type="button" className="btn btn--secondary" onClick={() => void overview.refetch()}>
          {t('planFacts.retry')}
        </button>
      </Problem>
    );
  else if (products.isError)
    content = (
      <Problem message={t('planPicker.loadFailed')} testId="plan-change-load-error">
        <button type="button" className="btn btn--secondary" onClick={() => void products.refetch()}>
          {t('planFacts.retry')}
        </button>
      </Problem>
    );
  else if (services.length === 0 && serviceId === null)
    content = <Problem message={t('planFacts.serviceIdMissing')} testId="plan-change-problem" />;
  else if (serviceId === null)
    content = (
      <p className="text-muted" data-testid="plan-change-choose-service">
        {t('planChange.chooseServiceHint')}
      </p>
    );
  else if (!service)
    content = <Problem message={t('planFacts.serviceNotFound')} testId="plan-change-problem" />;
  else
    content = (
      <>
        <section className="card plan-change__current" aria-labelledby="plan-change-current-title">
          <h2 id="plan-change-current-title" className="plan-change__current-title">
            {t('planChange.current')}
          </h2>
          <p data-testid="plan-change-current">
            {configurationText(t, i18n.language, {
              plan: service.plan,
              disk_space: service.disk_space,
              users_count: service.users_total,
            })}
          </p>
        </section>
        {isServiceLapsed(service) ? (
          <ExpiredNotice service={service} />
        ) : (
          <PlanChangeForm key={service.id} service={service} products={live} />
        )}
      </>
    );

  return (
    <div className="plan-change">
      <header className="page-header">
        <h1>{t('planChange.title')}</h1>
        <p className="text-muted">{t('planChange.lead')}</p>
      </header>
      {services.length > 1 && (
        <ServicePicker
          services={services}
          value={service?.id ?? null}
          onChange={(id) => setParams({ service: id })}
        />
      )}
      {content}
    </div>
  );
}
