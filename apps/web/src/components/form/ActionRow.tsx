// A form's or a step's buttons: its action first, then the quiet second choice (cancel, back,
// clear), which waits while the action runs (leaving mid-request would hide how it went).
import type { ReactNode } from 'react';

export function ActionRow({
  action,
  secondary,
  busy = false,
  className,
}: {
  /** The action's button (a BusyButton, a submit). */
  action: ReactNode;
  secondary: { label: string; onClick: () => void; testId: string };
  busy?: boolean;
  /** Placement next to `button-row`. */
  className?: string;
}) {
  return (
    <div className={className ? `button-row ${className}` : 'button-row'}>
      {action}
      <button
        type="button"
        className="btn btn--ghost"
        disabled={busy}
        onClick={secondary.onClick}
        data-testid={secondary.testId}
      >
        {secondary.label}
      </button>
    </div>
  );
}
