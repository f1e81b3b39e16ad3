// The invoice preview in a modal dialog: the API's HTML page shown in a sandboxed frame (no
// scripts, no same-origin rights), focus moved in and given back, Escape closes.
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../components/form/fields.tsx';
import type { InvoiceKind } from '@debesis/contract';
import { useInvoicePreview } from './billing-api.ts';

/** The document previewed: an invoice or a credit note. */
export interface Previewed {
  id: string;
  number: string;
  kind: InvoiceKind;
}

export function InvoicePreviewDialog({ invoice, onClose }: { invoice: Previewed; onClose: () => void }) {
  const { t } = useTranslation();
  const preview = useInvoicePreview(invoice.id);
  const closeButton = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
        return;
      }
      // Keep Tab inside the dialog.
      if (event.key !== 'Tab' || !dialog.current) return;
      const focusable = dialog.current.querySelectorAll<HTMLElement>(
        'button, a[href], iframe, [tabindex="0"]',
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      opener?.focus();
    };
  }, [onClose]);

  const title = t(
    invoice.kind === 'credit_note' ? 'billing.preview.creditNoteTitle' : 'billing.preview.title',
    {
      number: invoice.number,
    },
  );
  return (
    <div className="billing-dialog__backdrop" onClick={onClose}>
      <div
        ref={dialog}
        className="billing-dialog card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="invoice-preview-title"
        data-testid="invoice-preview"
        onClick={(event) => event.stopPropagation()}
      >
        <div className="billing-dialog__header">
          <h2 id="invoice-preview-title" className="billing-section__title">
            {title}
          </h2>
          <button
            ref={closeButton}
            type="button"
            className="btn btn--ghost"
            onClick={onClose}
            data-testid="invoice-preview-close"
          >
            {t('billing.preview.close')}
          </button>
        </div>
        {preview.isPending && (
          <p className="text-muted" role="status">
            {t('billing.preview.loading')}
          </p>
        )}
        {preview.isError && (
          <FormAlert tone="error" testId="invoice-preview-error">
            {t('billing.preview.failed')}
          </FormAlert>
        )}
        {preview.isSuccess && (
          <iframe
            className="billing-dialog__frame"
            title={title}
            sandbox=""
            srcDoc={preview.data}
            data-testid="invoice-preview-frame"
          />
        )}
      </div>
    </div>
  );
}
