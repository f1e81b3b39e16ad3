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
  id,
  label,
  error,
  hint,
  optional,
  className,
  children,
}: FieldFrameProps & { className?: string | undefined; children: ReactNode }) {
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <FieldLabel id={id} label={label} optional={optional} />
      {children}
      <FieldMessages id={id} error={error} hint={hint} />
    </div>
  );
}

type InputFieldProps = FieldFrameProps &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & { ref?: Ref<HTMLInputElement> | undefined };

export function InputField({
  id,
  label,
  error,
  hint,
  optional,
  ref,
  className,
  ...inputProps
}: InputFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional} className={className}>
      <input {...inputProps} ref={ref} className="input" {...controlAria(id, error, hint)} />
    </FieldFrame>
  );
}

type SelectFieldProps = FieldFrameProps &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { ref?: Ref<HTMLSelectElement> | undefined };

export function SelectField({
  id,
  label,
  error,
  hint,
  optional,
  ref,
  className,
  children,
  ...selectProps
}: SelectFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional} className={className}>
      <select {...selectProps} ref={ref} className="select" {...controlAria(id, error, hint)}>
        {children}
      </select>
    </FieldFrame>
  );
}

type TextareaFieldProps = FieldFrameProps &
  Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { ref?: Ref<HTMLTextAreaElement> | undefined };

/** A longer text (a message), framed and wired like InputField. */
export function TextareaField({
  id,
  label,
  error,
  hint,
  optional,
  ref,
  className,
  ...textareaProps
}: TextareaFieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} optional={optional} className={className}>
      <textarea {...textareaProps} ref={ref} className="textarea" {...controlAria(id, error, hint)} />
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
