// The account's unpaid orders (AWAITING_PAYMENT or FAILED), shown on the services and billing
// pages so an order left behind can be paid or cancelled without knowing its address: each with
// what it buys, its amount and status, Pay (or Retry payment) to its payment page, and Cancel,
// asked to confirm first (POST /orders/{id}/cancel frees the credit it set aside and closes its
// card pages). Nothing is shown when there is none.
import type { OpenOrder } from '@debesis/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessage } from '../api/api-error.ts';
import { isApiError } from '../api/client.ts';
import { FormAlert } from '../components/form/fields.tsx';
import { LoadFailed } from '../components/LoadFailed.tsx';
import '../i18n/orders-messages.ts';
import { diskSize, formatDate, money } from '../pages/plans/format.ts';
import { ACCOUNT_CREDIT_QUERY_KEY } from './plan-changes-api.ts';
import { cancelOrder, listOpenOrders, OPEN_ORDERS_QUERY_KEY, paymentPagePaths } from './payments-api.ts';
import './open-orders.css';

/** The page that takes this order's payment: its plan change's, the retry page, or its own. */
export function openOrderPaymentPath(order: OpenOrder): string {
  if (order.plan_change_id) return paymentPagePaths.planChange(order.plan_change_id);
  if (order.status === 'FAILED') return paymentPagePaths.retry(order.id);
  return paymentPagePaths.order(order.id);
}

function OpenOrderRow({ order }: { order: OpenOrder }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: () => cancelOrder(order.id),
    onSettled: () =>
      Promise.all(
        [OPEN_ORDERS_QUERY_KEY, ACCOUNT_CREDIT_QUERY_KEY, ['billing'], ['activity']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      ),
  });
  const titleId = `open-order-${order.id}-title`;
  const configuration = t('openOrders.configuration', {
    plan: order.product_name,
    disk: diskSize(order.disk_space, language),
    count: order.users_count,
  });
  const service = order.service_name ?? t('openOrders.yourService');
  const cancelError =
    cancel.error && isApiError(cancel.error)
      ? (serverMessage(cancel.error) ?? t('openOrders.cancelFailed'))
      : cancel.error
        ? t('openOrders.cancelFailed')
        : null;
  return (
    <li className="open-order" data-testid={`open-order-${order.id}`} aria-labelledby={titleId}>
      <div className="open-order__what">
        <p id={titleId} className="open-order__title">
          {order.kind === 'new'
            ? t('openOrders.kind_new', { plan: order.product_name })
            : order.kind === 'extension'
              ? t('openOrders.kind_extension', { service })
              : t('openOrders.kind_plan_change', { service })}
        </p>
        <p className="text-muted open-order__facts">
          {configuration} · {t('openOrders.created', { date: formatDate(order.created_at, language) })}
        </p>
        {order.status === 'FAILED' && (
          <span className="badge badge--danger" data-testid={`open-order-status-${order.id}`}>
            {t('openOrders.failed')}
          </span>
        )}
        {order.status === 'AWAITING_PAYMENT' && (
          <span className="badge badge--warning" data-testid={`open-order-status-${order.id}`}>
            {t('openOrders.awaiting')}
          </span>
        )}
      </div>
      <p className="open-order__amount" data-testid={`open-order-amount-${order.id}`}>
        {money(order.amount, language)}
      </p>
      <div className="open-order__actions">
        {confirming ? (
          <div className="open-order__confirm" role="group" aria-label={t('openOrders.confirmLabel')}>
            <p>{t('openOrders.confirm')}</p>
            <div className="button-row">
              <button
                type="button"
                className="btn btn--danger"
                disabled={cancel.isPending}
                aria-busy={cancel.isPending}
                onClick={() => cancel.mutate()}
                data-testid={`open-order-cancel-confirm-${order.id}`}
              >
                {t('openOrders.cancelYes')}
              </button>
              <button
                type="button"
                className="btn btn--ghost"
                disabled={cancel.isPending}
                onClick={() => setConfirming(false)}
                data-testid={`open-order-cancel-keep-${order.id}`}
              >
                {t('openOrders.cancelNo')}
              </button>
            </div>
          </div>
        ) : (
          <div className="button-row">
            <Link
              to={openOrderPaymentPath(order)}
              className="btn btn--primary"
              data-testid={`open-order-pay-${order.id}`}
            >
              {order.status === 'FAILED' ? t('openOrders.retry') : t('openOrders.pay')}
              <span className="visually-hidden"> — {configuration}</span>
            </Link>
            <button
              type="button"
              className="btn btn--secondary"
              onClick={() => setConfirming(true)}
              data-testid={`open-order-cancel-${order.id}`}
            >
              {t('openOrders.cancel')}
              <span className="visually-hidden"> — {configuration}</span>
            </button>
          </div>
        )}
        {cancelError && (
          <FormAlert tone="error" testId={`open-order-cancel-error-${order.id}`}>
            {cancelError}
          </FormAlert>
        )}
      </div>
    </li>
  );
}

export function OpenOrders() {
  const { t } = useTranslation();
  const orders = useQuery({ queryKey: OPEN_ORDERS_QUERY_KEY, queryFn: listOpenOrders });
  if (orders.isError)
    return (
      <LoadFailed testId="open-orders-error" query={orders} retryLabel={t('openOrders.retryLoad')}>
        {t('openOrders.loadFailed')}
      </LoadFailed>
    );
  if (!orders.data || orders.data.length === 0) return null;
  return (
    <section className="card open-orders" aria-labelledby="open-orders-title" data-testid="open-orders">
      <h2 id="open-orders-title" className="open-orders__title">
        {t('openOrders.title', { count: orders.data.length })}
      </h2>
      <p className="text-muted">{t('openOrders.lead')}</p>
      <ul role="list" className="open-orders__list">
        {orders.data.map((order) => (
          <OpenOrderRow key={order.id} order={order} />
        ))}
      </ul>
    </section>
  );
}
