// /dashboard/billing/invoices/{id}/pay: where the dunning mail's link leads (issue 38). An
// unpaid invoice (a renewal its kept card did not pay) is paid with any card on the provider's
// page (3-D Secure when the bank asks): POST /payments/session `{ invoice_id }`. Paying it pays
// that invoice and extends its service; a paid or void one says so.
import { invoiceSchema, paymentSessionResponseSchema } from '@debesis/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { isApiError } from '../../api/api-error.ts';
import { FormAlert } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import '../../i18n/billing-messages.ts';
import { useLanguage } from '../../i18n/language.ts';
import { providerNavigation } from '../../payments/payments-api.ts';
import { formatDate, money } from '../plans/format.ts';
import { INVOICES_PATH } from './billing-api.ts';

export function PayInvoicePage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { invoiceId = '' } = useParams();
  useDocumentTitle(t('billing.payInvoice.title'));
  const invoice = useQuery({
    queryKey: ['billing', 'invoice', invoiceId],
    queryFn: () => api.get(`${INVOICES_PATH}/${encodeURIComponent(invoiceId)}`, invoiceSchema),
  });
  const pay = useMutation({
    mutationFn: () =>
      api.post('/api/v1/payments/session', { invoice_id: invoiceId }, paymentSessionResponseSchema),
    onSuccess: (session) => providerNavigation.open(session.url),
  });
  const data = invoice.data;
  return (
    <section className="card resource-section" data-testid="pay-invoice">
      <h1>{t('billing.payInvoice.title')}</h1>
      {invoice.isPending && (
        <p className="text-muted" role="status">
          {t('billing.payInvoice.loading')}
        </p>
      )}
      {invoice.isError && (
        <FormAlert tone="error" testId="pay-invoice-load-error">
          {t('billing.payInvoice.loadFailed')}
        </FormAlert>
      )}
      {data && (
        <>
          <p data-testid="pay-invoice-summary">
            {t('billing.payInvoice.summary', {
              number: data.number,
              service: data.service_name ?? data.product_name,
              total: money(data.total, language),
              date: formatDate(data.issued_at, language),
            })}
          </p>
          {data.status === 'unpaid' ? (
            <>
              <p className="text-muted">{t('billing.payInvoice.lead')}</p>
              {pay.isError && (
                <FormAlert tone="error" testId="pay-invoice-error">
                  {isApiError(pay.error) && pay.error.status < 500
                    ? pay.error.message
                    : t('billing.payInvoice.openFailed')}
                </FormAlert>
              )}
              <button
                type="button"
                className="btn btn--primary"
                disabled={pay.isPending || pay.isSuccess}
                onClick={() => pay.mutate()}
                data-testid="pay-invoice-submit"
              >
                {pay.isPending || pay.isSuccess
                  ? t('billing.payInvoice.opening')
                  : t('billing.payInvoice.pay', { total: money(data.total, language) })}
              </button>
            </>
          ) : (
            <FormAlert tone="info" testId="pay-invoice-settled">
              {t(data.status === 'paid' ? 'billing.payInvoice.paid' : 'billing.payInvoice.notPayable')}
            </FormAlert>
          )}
        </>
      )}
      <p>
        <Link to="/dashboard/billing">{t('billing.payInvoice.back')}</Link>
      </p>
    </section>
  );
}
