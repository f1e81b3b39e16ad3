// A modal dialog: labelled by its title, focus moved in when it opens, kept inside while it is
// open (Tab and Shift+Tab wrap), Escape or the backdrop closes it, and focus goes back to what
// opened it. Rendered over the page (a portal), full width on narrow screens.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../icons.tsx';
import './dialog.css';
import { BusyButton } from '../form/BusyButton.tsx';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Shown under the title and read with it (aria-describedby). */
  description?: ReactNode;
  /** alertdialog for a question that needs an answer (a confirmation). */
  role?: 'dialog' | 'alertdialog';
  testId?: string;
}

export function Dialog({ title, onClose, children, description, role = 'dialog', testId }: DialogProps) {
  const { t } = useTranslation();
  const id = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const panel = panelRef.current;
    // The first field (or the element marked data-autofocus), else the dialog itself.
    const first =
      panel?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel?.querySelector<HTMLElement>(
        '.dialog__body input:not([disabled]), .dialog__body select, .dialog__body textarea',
      );
    (first ?? panel)?.focus();
    // On the document: focus may have left the dialog (a button it held became disabled).
    const onEscape = (event: globalThis.KeyboardEvent): void => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      closeRef.current();
    };
    document.addEventListener('keydown', onEscape);
    return () => {
      document.removeEventListener('keydown', onEscape);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key !== 'Tab' || !panelRef.current) return;
    const focusable = [...panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) closeRef.current();
      }}
    >
      <div
        ref={panelRef}
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={description ? `${id}-description` : undefined}
        className="dialog"
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        <div className="dialog__header">
          <h2 id={`${id}-title`} className="dialog__title">
            {title}
          </h2>
          <button type="button" className="btn btn--ghost btn--icon" onClick={() => closeRef.current()}>
            <CloseIcon />
            <span className="visually-hidden">{t('dialog.close')}</span>
          </button>
        </div>
        {description && (
          <div id={`${id}-description`} className="dialog__description">
            {description}
          </div>
        )}
        <div className="dialog__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}

/** A yes-or-no question before something that cannot be undone (a deletion). */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  busyLabel,
  busy,
  error,
  onConfirm,
  onCancel,
  testId,
}: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  busy: boolean;
  /** Why the last attempt failed (already worded), shown above the buttons. */
  error?: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Dialog title={title} description={body} role="alertdialog" onClose={onCancel} testId={testId}>
      {error}
      <div className="button-row dialog__actions">
        <BusyButton
          busy={busy}
          label={confirmLabel}
          busyLabel={busyLabel}
          type="button"
          className="btn btn--danger"
          onClick={onConfirm}
          testId={testId && `${testId}-confirm`}
        />
        <button type="button" className="btn btn--ghost" data-autofocus onClick={onCancel} disabled={busy}>
          {t('dialog.cancel')}
        </button>
      </div>
    </Dialog>
  );
}

/** The buttons at the foot of a form in a dialog: submit (busy while it runs) and cancel. */
export function DialogFormActions({
  submitLabel,
  busyLabel,
  busy,
  onCancel,
  testId,
}: {
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onCancel: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className="button-row dialog__actions">
      <BusyButton busy={busy} label={submitLabel} busyLabel={busyLabel} testId={testId} />
      <button type="button" className="btn btn--ghost" onClick={onCancel}>
        {t('dialog.cancel')}
      </button>
    </div>
  );
}
