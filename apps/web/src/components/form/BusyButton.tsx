// The one button that runs something slow (a save, a sign-in, a reload): while `busy` it is
// disabled, so a second click cannot send the request twice, and its words say what is under way.
import type { ButtonHTMLAttributes, ReactNode } from 'react';

type BusyButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children'> & {
  busy: boolean;
  label: ReactNode;
  busyLabel: ReactNode;
  /** A submit button unless told otherwise: most of these end a form. */
  type?: 'submit' | 'button';
  testId?: string | undefined;
  /** Said after the label either way (a visually hidden name of what the button acts on). */
  children?: ReactNode;
};

export function BusyButton({
  busy,
  label,
  busyLabel,
  type = 'submit',
  className = 'btn btn--primary',
  disabled,
  testId,
  children,
  ...buttonProps
}: BusyButtonProps) {
  return (
    <button
      {...buttonProps}
      type={type}
      className={className}
      disabled={busy || disabled}
      data-testid={testId}
    >
      {busy ? busyLabel : label}
      {children}
    </button>
  );
}
