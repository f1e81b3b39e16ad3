// Billing's "Payment method" panel (issue 38, kept cards): the card kept for renewals (brand,
// •••• last four, expiry; never the number), Replace (the provider's card form, which saves a new
// card without charging it) and Remove (after a confirmation), or an empty state that adds one.
// Back from the card form (`?payment_method=saved`) it asks again for a few seconds: the provider
// confirms the new card by its own event, a moment later.
import { cardBrandName, type SavedPaymentMethod } from '@debesis/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { isApiError } from '../../api/api-error.ts';
import { ConfirmDialog } from '../../components/dialog/Dialog.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { providerNavigation } from '../../payments/payments-api.ts';
import { openCardForm, usePaymentMethod, useRemovePaymentMethod } from './payment-methods-api.ts';

/** How long the panel keeps asking after the card form, and how often. */
export const CARD_CONFIRM_WINDOW_MS = 15_000;
const CARD_POLL_MS = 1_000;

/** Whether the card stops working by the end of this month (or has). */
export function expiresSoon(card: Pick<SavedPaymentMethod, 'exp_month' | 'exp_year'>, now: Date): boolean {
  return card.exp_year * 12 + card.exp_month <= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

function CardFacts({ card }: { card: SavedPaymentMethod }) {
  const { t } = useTranslation();
  const expiry = `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
  return (
    <div className="payment-method__card" data-testid="payment-method-card">
      <p className="payment-method__name">
        <span data-testid="payment-method-brand">{cardBrandName(card.brand)}</span>{' '}
        <span aria-label={t('billing.paymentMethod.endingIn', { last4: card.last4 })}>
          <span aria-hidden="true">•••• </span>
          <span data-testid="payment-method-last4">{card.last4}</span>
        </span>
      </p>
      <p className="text-muted" data-testid="payment-method-expiry">
        {t('billing.paymentMethod.expires', { expiry })}
        {expiresSoon(card, new Date()) && (
          <span className="badge badge--warning payment-method__soon" data-testid="payment-method-expiring">
            {t('billing.paymentMethod.expiringSoon')}
          </span>
        )}
      </p>
    </div>
  );
}

export function PaymentMethodPanel() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const confirming = params.get('payment_method') === 'saved';
  const [polling, setPolling] = useState(confirming);
  useEffect(() => {
    if (!polling) return;
    const stop = setTimeout(() => setPolling(false), CARD_CONFIRM_WINDOW_MS);
    return () => clearTimeout(stop);
  }, [polling]);
  const method = usePaymentMethod(polling ? CARD_POLL_MS : false);
  const remove = useRemovePaymentMethod();
  const [asking, setAsking] = useState(false);
  const [opening, setOpening] = useState(false);
  const [openFailed, setOpenFailed] = useState<string | null>(null);
  const card = method.data?.payment_method ?? null;

  const replace = () => {
    setOpening(true);
    setOpenFailed(null);
    openCardForm()
      .then(({ url }) => providerNavigation.open(url))
      .catch((error: unknown) => {
        setOpening(false);
        setOpenFailed(
          isApiError(error) && error.status < 500 ? error.message : t('billing.paymentMethod.openFailed'),
        );
      });
  };

  return (
    <section className="card billing-section payment-method" aria-labelledby="payment-method-title">
      <h2 id="payment-method-title" className="billing-section__title">
        {t('billing.paymentMethod.title')}
      </h2>
      <p className="text-muted">{t('billing.paymentMethod.lead')}</p>
      {confirming && (
        <FormAlert tone="success" testId="payment-method-saved">
          {t('billing.paymentMethod.saved')}
        </FormAlert>
      )}
      {method.isPending && (
        <p className="text-muted" role="status">
          {t('billing.paymentMethod.loading')}
        </p>
      )}
      {method.isError && (
        <LoadFailed retryLabel={t('billing.retry')} query={method} testId="payment-method-error">
          {t('billing.paymentMethod.loadFailed')}
        </LoadFailed>
      )}
      {method.isSuccess && !card && (
        <p className="text-muted" data-testid="payment-method-empty">
          {t('billing.paymentMethod.none')}
        </p>
      )}
      {card && <CardFacts card={card} />}
      {openFailed && (
        <FormAlert tone="error" testId="payment-method-open-error">
          {openFailed}
        </FormAlert>
      )}
      {method.isSuccess && (
        <div className="button-row">
          <button
            type="button"
            className="btn btn--secondary"
            onClick={replace}
            disabled={opening}
            aria-busy={opening}
            data-testid={card ? 'payment-method-replace' : 'payment-method-add'}
          >
            {opening
              ? t('billing.paymentMethod.opening')
              : card
                ? t('billing.paymentMethod.replace')
                : t('billing.paymentMethod.add')}
          </button>
          {card && (
            <button
              type="button"
              className="btn btn--ghost"
              onClick={() => {
                remove.reset();
                setAsking(true);
              }}
              data-testid="payment-method-remove"
            >
              {t('billing.paymentMethod.remove')}
            </button>
          )}
        </div>
      )}
      {asking && card && (
        <ConfirmDialog
          title={t('billing.paymentMethod.removeTitle')}
          body={
            <p>
              {t('billing.paymentMethod.removeBody', {
                card: `${cardBrandName(card.brand)} •••• ${card.last4}`,
              })}
            </p>
          }
          confirmLabel={t('billing.paymentMethod.removeConfirm')}
          busyLabel={t('billing.paymentMethod.removing')}
          busy={remove.isPending}
          error={
            remove.isError ? (
              <FormAlert tone="error" testId="payment-method-remove-error">
                {t('billing.paymentMethod.removeFailed')}
              </FormAlert>
            ) : undefined
          }
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => setAsking(false) })}
          onCancel={() => setAsking(false)}
          testId="payment-method-remove-dialog"
        />
      )}
    </section>
  );
}
