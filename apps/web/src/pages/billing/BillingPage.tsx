// Billing (spec §2 billing, §3 Invoice and Billing info, §8 Billing, §9): the account's credit and
// what awaits payment, its invoices (type and status badges, amounts in en-US with two decimals,
// filters, "Page X of Y (N total)", preview in a dialog, PDF download) and its billing info.
// Credit notes (issue 38) are listed with the invoices, labelled, each linked to its invoice and
// each invoice to its credit notes (the links open the other document's preview).
import {
  INVOICE_KINDS,
  INVOICE_STATUSES,
  INVOICE_TYPE_KEYS,
  INVOICE_TYPES,
  type InvoiceKind,
  type InvoiceReference,
  type InvoiceStatus,
  type InvoiceSummary,
  type InvoiceType,
} from '@debesis/contract';
import { money } from '../plans/format.ts';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionRow } from '../../components/form/ActionRow.tsx';
import { FormAlert, InputField, SelectField } from '../../components/form/fields.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import '../../i18n/billing-messages.ts';
import { useLanguage } from '../../i18n/language.ts';
import { useServicesOverview } from '../../services/services-api.ts';
import { OpenOrders } from '../../payments/OpenOrders.tsx';
import { BillingInfoForm, privateInvoiceReady } from './BillingInfoForm.tsx';
import {
  downloadInvoicePdf,
  NO_FILTERS,
  useBillingSummary,
  useInvoices,
  type InvoiceFilters,
} from './billing-api.ts';
import { InvoicePreviewDialog, type Previewed } from './InvoicePreviewDialog.tsx';
import { PaymentMethodPanel } from './PaymentMethodPanel.tsx';
import './billing.css';

const TYPE_TONE: Record<InvoiceType, string> = {
  PURCHASE: 'badge--info',
  RENEWAL: 'badge--success',
  PLAN_CHANGE: 'badge--warning',
};
const STATUS_TONE: Record<InvoiceStatus, string> = {
  paid: 'badge--success',
  unpaid: 'badge--warning',
  void: 'badge--danger',
  draft: '',
};

/** A calendar date (YYYY-MM-DD) in the reader's language, without a time-zone shift. */
function calendarDate(value: string, language: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language === 'lt' ? 'lt-LT' : 'en-US', {
    dateStyle: 'medium',
    timeZone: 'UTC',
  }).format(date);
}

export function TypeBadge({ type }: { type: InvoiceType }) {
  const { t } = useTranslation();
  const key = INVOICE_TYPE_KEYS[type];
  return (
    <span className={`badge ${TYPE_TONE[type]} invoice-type--${key}`} data-type={type}>
      {t(`billing.types.${key}`)}
    </span>
  );
}

const KIND_KEYS = { invoice: 'invoice', credit_note: 'creditNote' } as const satisfies Record<
  InvoiceKind,
  string
>;

/** A credit note's `paid`: its money went back to the customer. */
function StatusBadge({ status, kind }: { status: InvoiceStatus; kind: InvoiceKind }) {
  const { t } = useTranslation();
  const refunded = kind === 'credit_note' && status === 'paid';
  return (
    <span className={`badge ${refunded ? 'badge--info' : STATUS_TONE[status]}`} data-status={status}>
      {t(refunded ? 'billing.statuses.refunded' : `billing.statuses.${status}`)}
    </span>
  );
}

/** A filter that is either off ("any", the empty value) or one of its choices. */
function ChoiceFilter<Value extends string>({
  id,
  label,
  anyLabel,
  choices,
  value,
  onChoose,
}: {
  id: string;
  label: string;
  anyLabel: string;
  choices: ReadonlyArray<{ value: Value; label: string }>;
  value: Value | '';
  onChoose: (value: Value | '') => void;
}) {
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      onChange={(event) =>
        onChoose(choices.find((choice) => choice.value === event.target.value)?.value ?? '')
      }
    >
      <option value="">{anyLabel}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value}>
          {choice.label}
        </option>
      ))}
    </SelectField>
  );
}

function Filters({
  applied,
  onApply,
  serviceIds,
}: {
  applied: InvoiceFilters;
  onApply: (filters: InvoiceFilters) => void;
  serviceIds: Array<{ id: string; name: string }>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(applied);
  const invalidRange = draft.start_date !== '' && draft.end_date !== '' && draft.start_date > draft.end_date;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalidRange) onApply(draft);
  };
  return (
    <form
      className="invoice-filters"
      aria-label={t('billing.filters.title')}
      onSubmit={submit}
      data-testid="invoice-filters"
    >
      <InputField
        id="invoice-filter-from"
        type="date"
        label={t('billing.filters.from')}
        value={draft.start_date}
        onChange={(event) => setDraft({ ...draft, start_date: event.target.value })}
      />
      <InputField
        id="invoice-filter-to"
        type="date"
        label={t('billing.filters.to')}
        value={draft.end_date}
        error={invalidRange ? t('billing.filters.invalidRange') : undefined}
        onChange={(event) => setDraft({ ...draft, end_date: event.target.value })}
      />
      <ChoiceFilter
        id="invoice-filter-type"
        label={t('billing.filters.type')}
        anyLabel={t('billing.filters.anyType')}
        choices={INVOICE_TYPES.map((type) => ({
          value: type,
          label: t(`billing.types.${INVOICE_TYPE_KEYS[type]}`),
        }))}
        value={draft.payment_type}
        onChoose={(payment_type) => setDraft({ ...draft, payment_type })}
      />
      <ChoiceFilter
        id="invoice-filter-kind"
        label={t('billing.filters.kind')}
        anyLabel={t('billing.filters.anyKind')}
        choices={INVOICE_KINDS.map((kind) => ({ value: kind, label: t(`billing.kinds.${KIND_KEYS[kind]}`) }))}
        value={draft.kind}
        onChoose={(kind) => setDraft({ ...draft, kind })}
      />
      <ChoiceFilter
        id="invoice-filter-status"
        label={t('billing.filters.status')}
        anyLabel={t('billing.filters.anyStatus')}
        choices={INVOICE_STATUSES.map((status) => ({
          value: status,
          label: t(`billing.statuses.${status}`),
        }))}
        value={draft.status}
        onChoose={(status) => setDraft({ ...draft, status })}
      />
      <ChoiceFilter
        id="invoice-filter-service"
        label={t('billing.filters.service')}
        anyLabel={t('billing.filters.anyService')}
        choices={serviceIds.map((service) => ({ value: service.id, label: service.name }))}
        value={draft.service_id}
        onChoose={(service_id) => setDraft({ ...draft, service_id })}
      />
      <ActionRow
        className="invoice-filters__buttons"
        action={
          <button type="submit" className="btn btn--secondary" data-testid="invoice-filters-apply">
            {t('billing.filters.apply')}
          </button>
        }
        secondary={{
          label: t('billing.filters.clear'),
          onClick: () => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          },
          testId: 'invoice-filters-clear',
        }}
      />
    </form>
  );
}

function InvoiceRow({
  invoice,
  onPreview,
  onDownloadFailed,
}: {
  invoice: InvoiceSummary;
  onPreview: (invoice: Previewed) => void;
  onDownloadFailed: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [downloading, setDownloading] = useState(false);
  const download = () => {
    setDownloading(true);
    downloadInvoicePdf(invoice.id, invoice.number)
      .catch(onDownloadFailed)
      .finally(() => setDownloading(false));
  };
  return (
    <tr data-testid={`invoice-row-${invoice.number}`}>
      <th scope="row" className="invoice-number">
        {invoice.number}
        {/* The service under its invoice's number, not a column of its own: the table fits at 1366 px. */}
        <span className="invoice-service" data-label={t('billing.invoices.service')}>
          {/* Its name; the id only for an invoice whose workspace has none any more. */}
          {invoice.service_name ?? (invoice.service_id ? <code>{invoice.service_id}</code> : '—')}
        </span>
        <CreditLinks invoice={invoice} onPreview={onPreview} />
      </th>
      {/* data-label: on a phone each row is a card, and each value is named by its column. */}
      <td data-label={t('billing.invoices.date')}>{calendarDate(invoice.date, language)}</td>
      <td data-label={t('billing.invoices.type')}>
        {invoice.kind === 'credit_note' && (
          <span className="badge badge--danger invoice-kind" data-kind={invoice.kind}>
            {t('billing.kinds.creditNote')}
          </span>
        )}
        <TypeBadge type={invoice.type} />
      </td>
      <td data-label={t('billing.invoices.status')}>
        <StatusBadge status={invoice.status} kind={invoice.kind} />
      </td>
      <td className="numeric" data-label={t('billing.invoices.vat')}>
        {money(invoice.vat_amount, language)}
      </td>
      <td
        className="numeric"
        data-label={t('billing.invoices.amount')}
        data-testid={`invoice-total-${invoice.number}`}
      >
        {money(invoice.total, language)}
      </td>
      <td className="invoice-actions">
        <div className="invoice-actions__buttons">
          <button
            type="button"
            className="btn btn--ghost"
            aria-label={t('billing.invoices.previewOf', { number: invoice.number })}
            onClick={() => onPreview(invoice)}
            data-testid={`invoice-preview-${invoice.number}`}
          >
            {t('billing.invoices.preview')}
          </button>
          <button
            type="button"
            className="btn btn--ghost"
            aria-label={t('billing.invoices.downloadOf', { number: invoice.number })}
            disabled={downloading}
            onClick={download}
            data-testid={`invoice-pdf-${invoice.number}`}
          >
            {t('billing.invoices.download')}
          </button>
        </div>
      </td>
    </tr>
  );
}

/** Under a credit note its invoice, under an invoice its credit notes: each opens that preview. */
function CreditLinks({
  invoice,
  onPreview,
}: {
  invoice: InvoiceSummary;
  onPreview: (invoice: Previewed) => void;
}) {
  const { t } = useTranslation();
  const link = (reference: InvoiceReference, label: string, ariaLabel: string) => (
    <button
      key={reference.id}
      type="button"
      className="invoice-credit-link"
      aria-label={ariaLabel}
      onClick={() =>
        onPreview({
          id: reference.id,
          number: reference.number,
          kind: invoice.kind === 'credit_note' ? 'invoice' : 'credit_note',
        })
      }
      data-testid={`invoice-link-${invoice.number}-${reference.number}`}
    >
      {label}
    </button>
  );
  if (invoice.credited_invoice) {
    const credited = invoice.credited_invoice;
    return (
      <span className="invoice-credits">
        {link(
          credited,
          t('billing.invoices.credits', { number: credited.number }),
          t('billing.invoices.creditsOf', { number: credited.number }),
        )}
      </span>
    );
  }
  if (invoice.credit_notes.length === 0) return null;
  return (
    <span className="invoice-credits">
      {t('billing.invoices.creditNotes')}{' '}
      {invoice.credit_notes.map((note) =>
        link(note, note.number, t('billing.invoices.creditNoteOf', { number: note.number })),
      )}
    </span>
  );
}

/** The services by name; the start of its id only tells apart two of the same name. */
function serviceChoices(services: Array<{ id: string; name: string }>): Array<{ id: string; name: string }> {
  return services.map((service) => ({
    id: service.id,
    name:
      services.filter((other) => other.name === service.name).length > 1
        ? `${service.name} (${service.id.slice(0, 8)})`
        : service.name,
  }));
}

function Invoices() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<InvoiceFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [previewing, setPreviewing] = useState<Previewed | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const invoices = useInvoices(filters, page);
  const services = useServicesOverview();
  const closePreview = useCallback(() => setPreviewing(null), []);
  const list = invoices.data;

  return (
    <section className="card billing-section" aria-labelledby="billing-invoices-title">
      <h2 id="billing-invoices-title" className="billing-section__title">
        {t('billing.invoices.title')}
      </h2>
      <Filters
        applied={filters}
        serviceIds={serviceChoices(services.data?.services ?? [])}
        onApply={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      {downloadFailed && (
        <FormAlert tone="error" testId="invoice-download-error">
          {t('billing.invoices.downloadFailed')}
        </FormAlert>
      )}
      {invoices.isPending && (
        <p className="text-muted" role="status">
          {t('billing.invoices.loading')}
        </p>
      )}
      {invoices.isError && (
        <LoadFailed retryLabel={t('billing.retry')} query={invoices} testId="invoices-error">
          {t('billing.invoices.loadFailed')}
        </LoadFailed>
      )}
      {list && list.items.length === 0 && (
        <p className="text-muted" data-testid="invoices-empty">
          {/* "No invoices match" only says something when filters narrowed the list. */}
          {Object.values(filters).some((value) => value !== '')
            ? t('billing.invoices.noMatch')
            : t('billing.invoices.none')}
        </p>
      )}
      {list && list.items.length > 0 && (
        <div className="invoice-table__scroll">
          <table className="table table--cards invoice-table" data-testid="invoice-table">
            <thead>
              <tr>
                <th scope="col">{t('billing.invoices.number')}</th>
                <th scope="col">{t('billing.invoices.date')}</th>
                <th scope="col">{t('billing.invoices.type')}</th>
                <th scope="col">{t('billing.invoices.status')}</th>
                <th scope="col" className="numeric">
                  {t('billing.invoices.vat')}
                </th>
                <th scope="col" className="numeric">
                  {t('billing.invoices.amount')}
                </th>
                <th scope="col">
                  <span className="visually-hidden">{t('billing.invoices.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((invoice) => (
                <InvoiceRow
                  key={invoice.id}
                  invoice={invoice}
                  onPreview={setPreviewing}
                  onDownloadFailed={() => setDownloadFailed(true)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list && (
        <nav className="invoice-pagination" aria-label={t('billing.invoices.pagination')}>
          <button
            type="button"
            className="btn btn--ghost"
            disabled={list.page <= 1}
            onClick={() => setPage(list.page - 1)}
            data-testid="invoices-previous"
          >
            {t('billing.invoices.previous')}
          </button>
          <span aria-live="polite" data-testid="invoices-page">
            {t('billing.invoices.page', { page: list.page, pages: list.pages, total: list.total })}
          </span>
          <button
            type="button"
            className="btn btn--ghost"
            disabled={list.page >= list.pages}
            onClick={() => setPage(list.page + 1)}
            data-testid="invoices-next"
          >
            {t('billing.invoices.next')}
          </button>
        </nav>
      )}
      {previewing && <InvoicePreviewDialog invoice={previewing} onClose={closePreview} />}
    </section>
  );
}

/** One figure of the summary on its card: what it is, the figure, and a note on it. */
function SummaryFigure({
  term,
  value,
  valueTestId,
  note,
}: {
  term: string;
  value: ReactNode;
  valueTestId?: string;
  note: string;
}) {
  return (
    <div className="card">
      <dt>{term}</dt>
      <dd data-testid={valueTestId}>{value}</dd>
      <dd className="text-muted">{note}</dd>
    </div>
  );
}

export function BillingPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  useDocumentTitle(t('billing.title'));
  const summary = useBillingSummary();
  const data = summary.data;
  return (
    <>
      <header className="page-header">
        <h1>{t('billing.title')}</h1>
        <p className="text-muted">{t('billing.lead')}</p>
      </header>
      {summary.isError && (
        <LoadFailed retryLabel={t('billing.retry')} query={summary} testId="billing-error">
          {t('billing.loadFailed')}
        </LoadFailed>
      )}
      {data && (
        <dl className="billing-summary" data-testid="billing-summary">
          <SummaryFigure
            term={t('billing.summary.credit')}
            value={money(data.credit.balance, language)}
            valueTestId="billing-credit"
            note={t('billing.summary.creditNote')}
          />
          <SummaryFigure
            term={t('billing.summary.outstanding')}
            value={money(data.outstanding.amount, language)}
            valueTestId="billing-outstanding"
            note={t('billing.summary.outstandingNote', { count: data.outstanding.count })}
          />
          <SummaryFigure
            term={t('billing.summary.invoices')}
            value={data.invoices.count}
            note={`${t('billing.summary.paid')}: ${money(data.invoices.total_paid, language)}`}
          />
        </dl>
      )}
      {data && !data.completeness.complete && !privateInvoiceReady(data.billing_info) && (
        <FormAlert tone="warning" testId="billing-incomplete-banner">
          <a href="#billing-info-title">{t('billing.info.incomplete')}</a>
        </FormAlert>
      )}
      <OpenOrders />
      <PaymentMethodPanel />
      <div className="billing-grid">
        <Invoices />
        {data && <BillingInfoForm info={data.billing_info} />}
      </div>
    </>
  );
}
