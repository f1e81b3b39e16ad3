// The frame of every account page (sign-in, registration, password reset, email verification and
// confirmation, OAuth): one card named by its heading, a status screen while a link is checked,
// the outcome with its message, and the form with its failure above and the full-width submit
// below. Each page says only what is its own: its words, its fields and what it sends.
import type { FormEvent, ReactNode } from 'react';
import { BusyButton } from '../../components/form/BusyButton.tsx';
import { FormAlert } from '../../components/form/fields.tsx';
import './auth.css';

/** The page's heading; the card (or status) it stands in is labelled by its id. */
export function AuthTitle({ id, children }: { id?: string | undefined; children: ReactNode }) {
  return (
    <h1 id={id} className="auth-card__title">
      {children}
    </h1>
  );
}

/**
 * The card an account page stands in, labelled by its heading. Without `title` the heading comes
 * from the children (a page whose state decides it) and must carry `titleId`.
 */
export function AuthCard({
  titleId,
  title,
  lead,
  wide = false,
  testId,
  children,
}: {
  titleId: string;
  title?: ReactNode;
  /** The muted sentence under the title. */
  lead?: ReactNode;
  /** Room for two fields side by side (registration). */
  wide?: boolean;
  testId?: string | undefined;
  children: ReactNode;
}) {
  return (
    <section
      className={wide ? 'card auth-card auth-card--wide' : 'card auth-card'}
      aria-labelledby={titleId}
      data-testid={testId}
    >
      {title !== undefined && <AuthTitle id={titleId}>{title}</AuthTitle>}
      {lead !== undefined && <p className="text-muted">{lead}</p>}
      {children}
    </section>
  );
}

/** While a mailed link or a one-time code is being checked: a spinner and what is under way. */
export function AuthPending({
  titleId,
  title,
  testId,
}: {
  titleId: string;
  title: ReactNode;
  testId: string;
}) {
  return (
    <div className="auth-status" role="status" data-testid={testId}>
      <span className="spinner" aria-hidden="true" />
      <AuthTitle id={titleId}>{title}</AuthTitle>
    </div>
  );
}

/** How a checked link went: the heading, the message in its tone, then the way on (children). */
export function AuthOutcome({
  titleId,
  title,
  tone,
  message,
  messageTestId,
  testId,
  children,
}: {
  titleId: string;
  title: ReactNode;
  tone: 'success' | 'error';
  message: ReactNode;
  messageTestId?: string;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <div data-testid={testId}>
      <AuthTitle id={titleId}>{title}</AuthTitle>
      <FormAlert tone={tone} testId={messageTestId}>
        {message}
      </FormAlert>
      {children}
    </div>
  );
}

/**
 * An account page's form: what went wrong above it (announced at once), its fields, then the
 * full-width submit that says what is under way while `change` (the form's mutation) runs. Its
 * test ids are `<name>-form`, `<name>-error` and `<name>-submit`.
 */
export function AuthForm({
  name,
  onSubmit,
  change,
  failure,
  submitLabel,
  busyLabel,
  children,
}: {
  name: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  change: { isPending: boolean; isError: boolean; error: unknown };
  /** The words for the change's error. */
  failure: (error: unknown) => ReactNode;
  submitLabel: string;
  busyLabel: string;
  children: ReactNode;
}) {
  return (
    <>
      {change.isError && (
        <FormAlert tone="error" testId={`${name}-error`}>
          {failure(change.error)}
        </FormAlert>
      )}
      <form className="form" noValidate data-testid={`${name}-form`} onSubmit={onSubmit}>
        {children}
        <BusyButton
          busy={change.isPending}
          label={submitLabel}
          busyLabel={busyLabel}
          className="btn btn--primary btn--block"
          testId={`${name}-submit`}
        />
      </form>
    </>
  );
}
