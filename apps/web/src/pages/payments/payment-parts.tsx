// The building blocks every payment page is made of (spec §4 "Payment flows"): the page frame, the
// summary of what is paid, the price breakdown, the pay button with its in-flight and error state,
// a problem with its way out, and the order a page pays. The pages in this folder only decide
// what to show; paying always goes order → payment session → provider page.
import type { TFunction } from 'i18next';
import type { Order, PriceBreakdownResponse } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/client.ts';
import { useSession } from '../../auth/session.ts';
import { DefinitionList } from '../../components/DefinitionList.tsx';
import { CheckboxField, FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/orders-messages.ts';
import '../../i18n/plans-messages.ts';
import { declinedReason, failureDetails } from '../../payments/failure-message.ts';
import { getOrder, processOrder, providerNavigation } from '../../payments/payments-api.ts';
import { countryName, money } from '../plans/format.ts';
import { PriceBreakdownView } from '../plans/PriceBreakdownView.tsx';
import './payments.css';
import { BusyButton } from '../../components/form/BusyButton.tsx';

type Translate = TFunction;

export function PaymentShell({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <div className="payment">
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      {children}
    </div>
  );
}

export interface SummaryFact {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** What is paid for, fact by fact, and the total to pay. */
export function Summary({
  facts,
  total,
  note,
  title,
}: {
  facts: SummaryFact[];
  /** Null while it is not known yet. */
  total: number | null;
  note?: string | undefined;
  title?: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card payment__summary" aria-labelledby="payment-summary-title">
      <h2 id="payment-summary-title" className="payment__summary-title">
        {title ?? t('payment.summary')}
      </h2>
      <DefinitionList
        className="payment__facts"
        testId="payment-summary"
        items={[
          ...facts.map((fact) => ({ term: fact.label, value: fact.value, testId: fact.testId })),
          {
            term: t('payment.total'),
            value: total === null ? '—' : money(total, i18n.language),
            testId: 'payment-total',
            className: 'payment__total',
          },
        ]}
      />
      {note && <p className="text-muted payment__note">{note}</p>}
    </section>
  );
}

/** The price breakdown of spec §3 for the signed-in customer's country. */
export function Breakdown({
  breakdown,
  checking,
}: {
  breakdown: PriceBreakdownResponse | null;
  checking?: boolean;
}) {
  const { i18n } = useTranslation();
  const { user } = useSession();
  const country = user?.country && /^[A-Za-z]{2}$/.test(user.country) ? user.country.toUpperCase() : null;
  return (
    <PriceBreakdownView
      breakdown={breakdown}
      status={checking ? 'checking' : 'confirmed'}
      country={country ? countryName(country, i18n.language) : null}
    />
  );
}

/** Runs one payment start (order → session → provider page), with its in-flight and error state. */
export function usePaymentStart() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function start(openSession: () => Promise<{ url: string }>, fallback: string): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const session = await openSession();
      // The provider's card page, or the completion page when account credit paid it all.
      providerNavigation.open(session.url);
      // The browser is leaving; the button stays busy until it has.
    } catch (caught) {
      setBusy(false);
      setError(isApiError(caught) && caught.status >= 400 && caught.status < 500 ? caught.message : fallback);
    }
  }
  return { busy, error, start };
}

/** Opens the payment of an order awaiting payment; `onConflict` when it was paid or changed meanwhile. */
export function openOrderPayment(
  orderId: string,
  onConflict: () => void,
  body: { name?: string; save_payment_method?: boolean } = {},
) {
  return async () => {
    try {
      return await processOrder(orderId, body);
    } catch (error) {
      if (isApiError(error) && error.status === 409) onConflict();
      throw error;
    }
  };
}

/**
 * "Keep this card for renewals": sent as `save_payment_method`, so the provider keeps the card
 * (Billing → Payment method shows it). Off unless the customer ticks it.
 */
export function KeepCardField({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (keep: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <CheckboxField
      id="payment-keep-card"
      label={t('payment.keepCard')}
      hint={t('payment.keepCardHint')}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
      data-testid="payment-keep-card"
    />
  );
}

export function PayButton({
  onClick,
  busy,
  label,
  testId = 'payment-pay',
  disabled = false,
  coveredByCredit = false,
}: {
  onClick: () => void;
  busy: boolean;
  label: string;
  testId?: string;
  disabled?: boolean;
  /** Account credit pays it all: no card page, straight to the outcome. */
  coveredByCredit?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div className="payment__actions">
      <BusyButton
        busy={busy}
        label={coveredByCredit ? t('payment.payWithCredit') : label}
        busyLabel={t('payment.paying')}
        type="button"
        className="btn btn--primary btn--lg"
        onClick={onClick}
        disabled={disabled}
        aria-busy={busy}
        testId={testId}
      />
      <p className="text-muted payment__note" data-testid="payment-pay-note">
        {coveredByCredit ? t('payment.creditCovers') : t('payment.payNote')}
      </p>
    </div>
  );
}

/** What went wrong, and the ways on from there. */
export function PageProblem({
  message,
  children,
  testId = 'payment-error',
}: {
  message: string;
  children?: ReactNode;
  testId?: string;
}) {
  return (
    <>
      <FormAlert tone="error" testId={testId}>
        {message}
      </FormAlert>
      {children && <div className="button-row payment__links">{children}</div>}
    </>
  );
}

/** A page's outcome that needs no payment (already paid, applied…), with where to go next. */
export function PageNotice({
  tone,
  message,
  children,
}: {
  tone: 'success' | 'info' | 'warning';
  message: string;
  children: ReactNode;
}) {
  return (
    <>
      <FormAlert tone={tone} testId="payment-notice">
        {message}
      </FormAlert>
      <div className="button-row payment__links">{children}</div>
    </>
  );
}

export function Loading({ text }: { text: string }) {
  return (
    <p className="text-muted" role="status">
      {text}
    </p>
  );
}

export function useOrder(orderId: string | null | undefined) {
  return useQuery({
    queryKey: ['orders', orderId],
    queryFn: () => getOrder(orderId ?? ''),
    enabled: Boolean(orderId),
    retry: false,
    staleTime: 0,
  });
}

export function orderLoadProblem(error: unknown, t: Translate): string {
  return isApiError(error) && error.status === 404
    ? t('payment.orderNotFound')
    : t('payment.orderLoadFailed');
}

/**
 * Why the last attempt failed, after "The last payment attempt failed:": the card's reason in the
 * reader's language when the provider gave a known code, else its words, else the order's message
 * (never "failed: Payment failed: …").
 */
export function FailureReason({ order }: { order: Order }) {
  const { t, i18n } = useTranslation();
  const reason =
    declinedReason(order.error_details, t, (key) => i18n.exists(key)) ??
    failureDetails(order.error_details) ??
    order.error_message ??
    t('completion.orderFailed');
  return (
    <FormAlert tone="warning" testId="payment-failure-reason">
      {t('payment.failedReason')} {reason}
    </FormAlert>
  );
}

/** An order that is not awaiting payment any more: paid, or otherwise not payable. */
export function OrderDone({ order, children }: { order: Order; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageNotice
      tone={order.status === 'PAID' ? 'success' : 'info'}
      message={order.status === 'PAID' ? t('payment.alreadyPaid') : t('payment.notPayable')}
    >
      {children ?? (
        <Link to="/dashboard/services" className="btn btn--primary">
          {t('payment.toServices')}
        </Link>
      )}
    </PageNotice>
  );
}
