// The billing calls of spec §7 as the billing page uses them: the summary, the invoice list with
// its filters, the invoice preview (HTML) and PDF, and saving billing info.
import {
  billingInfoSchema,
  billingSummarySchema,
  invoiceListSchema,
  type InvoiceKind,
  type InvoiceStatus,
  type InvoiceType,
  type UpdateBillingInfoRequest,
} from '@debesis/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../api/client.ts';
import { saveFile } from '../../lib/save-file.ts';

export const BILLING_PATH = '/api/v1/billing/';
export const INVOICES_PATH = '/api/v1/billing/invoices';
export const BILLING_INFO_PATH = '/api/v1/billing/info';
export const BILLING_QUERY_KEY = ['billing'] as const;

export interface InvoiceFilters {
  start_date: string;
  end_date: string;
  payment_type: InvoiceType | '';
  /** Invoices or credit notes. */
  kind: InvoiceKind | '';
  status: InvoiceStatus | '';
  service_id: string;
}

export const NO_FILTERS: InvoiceFilters = {
  start_date: '',
  end_date: '',
  payment_type: '',
  kind: '',
  status: '',
  service_id: '',
};

export function useBillingSummary() {
  return useQuery({
    queryKey: [...BILLING_QUERY_KEY, 'summary'],
    queryFn: () => api.get(BILLING_PATH, billingSummarySchema),
  });
}

export function useInvoices(filters: InvoiceFilters, page: number) {
  return useQuery({
    queryKey: [...BILLING_QUERY_KEY, 'invoices', filters, page],
    // Empty filters are dropped (spec §5), page size is the spec's default (§9).
    queryFn: () =>
      api.get(INVOICES_PATH, invoiceListSchema, {
        params: {
          page,
          start_date: filters.start_date || undefined,
          end_date: filters.end_date || undefined,
          payment_type: filters.payment_type || undefined,
          kind: filters.kind || undefined,
          status: filters.status || undefined,
          service_id: filters.service_id || undefined,
        },
      }),
    placeholderData: keepPreviousData,
  });
}

export function useInvoicePreview(id: string | null) {
  return useQuery({
    queryKey: [...BILLING_QUERY_KEY, 'preview', id],
    enabled: id !== null,
    queryFn: () =>
      api.request(
        {
          method: 'GET',
          url: `${INVOICES_PATH}/${id ?? ''}/preview`,
          responseType: 'text',
          headers: { Accept: 'text/html' },
        },
        z.string(),
      ),
    retry: false,
  });
}

/** The file's bytes (checked by their tag: an ArrayBuffer may come from another realm). */
const pdfBytesSchema = z.custom<ArrayBuffer>(
  (value) => Object.prototype.toString.call(value) === '[object ArrayBuffer]',
);

/** Fetches the PDF with the session's token and hands it to the browser as a download. */
export async function downloadInvoicePdf(id: string, number: string): Promise<void> {
  const bytes = await api.request(
    {
      method: 'GET',
      url: `${INVOICES_PATH}/${id}/pdf`,
      responseType: 'arraybuffer',
      headers: { Accept: 'application/pdf' },
    },
    pdfBytesSchema,
  );
  saveFile(bytes, `${number}.pdf`, 'application/pdf');
}

export function useUpdateBillingInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateBillingInfoRequest) => api.put(BILLING_INFO_PATH, request, billingInfoSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...BILLING_QUERY_KEY, 'summary'] }),
  });
}
