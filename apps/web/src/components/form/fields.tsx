// Labelled form controls for react-hook-form (`{...register('email')}` spreads straight in), with
// the error and hint wired for assistive technology (aria-invalid, aria-describedby).
import type {
  InputHTMLAttributes,
  ReactNode,
  Ref,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
} from 'react';
import { useTranslation } from 'react-i18next';
import './fields.css';

interface FieldFrameProps {
  id: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  optional?: boolean;
}

function describedBy(id: string, error: unknown, hint: unknown): string | undefined {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

function FieldLabel({ id, label, optional }: Pick<FieldFrameProps, 'id' | 'label' | 'optional'>) {
  const { t } = useTranslation();
  return (
    <label htmlFor={id} className="field__label">
      {label}
      {optional && <span className="field__optional"> ({t('common.optional')})</span>}
    </label>
  );
}

function FieldMessages({ id, error, hint }: Pick<FieldFrameProps, 'id' | 'error' | 'hint'>) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </>
  );
}

/** What a control says of itself to assistive technology: its id, whether it is wrong, and why. */
function controlAria(id: string, error: unknown, hint: unknown) {
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, error, hint) };
}

/** A labelled field: its label, its control, then its hint and error. */
function FieldFrame({
  className,
  children,
  ...frame
}: FieldFrameProps & { className?: string | undefined; children: ReactNode }) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <FieldLabel {...frame} />
      {children}
      <FieldMessages {...frame} />
    </div>
  );
}

/** A framed control's props: its frame's (label, hint, error, class) and the control's own attributes. */
type FramedProps<Attributes, Element> = FieldFrameProps &
  Omit<Attributes, 'id'> & { className?: string | undefined; ref?: Ref<Element> | undefined };

/**
 * Parts a field's props between its frame and its control. The control's id and aria wiring come
 * last, so nothing passed in can undo them.
 */
function splitField<Props extends FieldFrameProps & { className?: string | undefined }>({
  id,
  label,
  error,
  hint,
  optional,
  className,
  ...control
}: Props) {
  return {
    frame: { id, label, error, hint, optional, className },
    control: { ...control, ...controlAria(id, error, hint) },
  };
}

export function InputField(props: FramedProps<InputHTMLAttributes<HTMLInputElement>, HTMLInputElement>) {
  const { frame, control } = splitField(props);
  return (
    <FieldFrame {...frame}>
      <input {...control} className="input" />
    </FieldFrame>
  );
}

/** The options are its children. */
export function SelectField(props: FramedProps<SelectHTMLAttributes<HTMLSelectElement>, HTMLSelectElement>) {
  const { frame, control } = splitField(props);
  return (
    <FieldFrame {...frame}>
      <select {...control} className="select" />
    </FieldFrame>
  );
}

/** A longer text (a message), framed and wired like InputField. */
export function TextareaField(
  props: FramedProps<TextareaHTMLAttributes<HTMLTextAreaElement>, HTMLTextAreaElement>,
) {
  const { frame, control } = splitField(props);
  return (
    <FieldFrame {...frame}>
      <textarea {...control} className="textarea" />
    </FieldFrame>
  );
}

type CheckboxFieldProps = Omit<FieldFrameProps, 'optional'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> & { ref?: Ref<HTMLInputElement> | undefined };

export function CheckboxField({ id, label, hint, error, ref, ...inputProps }: CheckboxFieldProps) {
  return (
    <div className="field field--checkbox">
      <input
        {...inputProps}
        ref={ref}
        type="checkbox"
        className="checkbox"
        {...controlAria(id, error, hint)}
      />
      <div className="field--checkbox__text">
        <label htmlFor={id} className="field__label">
          {label}
        </label>
        <FieldMessages id={id} error={error} hint={hint} />
      </div>
    </div>
  );
}

/** The form-level message: errors are announced at once, confirmations politely. */
export function FormAlert({
  tone,
  children,
  testId,
}: {
  tone: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </div>
  );
}
