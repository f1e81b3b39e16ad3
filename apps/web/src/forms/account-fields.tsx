// The fields every account form has (registration, profile, email and password changes), wired
// once: what the browser's autofill and password manager must know of each (given-name,
// current-password, new-password…), required, and the test id equal to the id. Each takes what
// the form hook's `form.field(name)` gives: its register and its message.
import type { UseFormRegisterReturn } from 'react-hook-form';
import { InputField } from '../components/form/fields.tsx';
import { BusyButton } from '../components/form/BusyButton.tsx';

type Registered = UseFormRegisterReturn & { error: string | undefined };

/** First and last name side by side: `<idPrefix>-first-name`, `<idPrefix>-last-name`. */
export function PersonNameFields({
  idPrefix,
  labels,
  first,
  last,
}: {
  idPrefix: string;
  labels: { first: string; last: string };
  first: Registered;
  last: Registered;
}) {
  return (
    <div className="form__row">
      <InputField
        id={`${idPrefix}-first-name`}
        label={labels.first}
        autoComplete="given-name"
        required
        data-testid={`${idPrefix}-first-name`}
        {...first}
      />
      <InputField
        id={`${idPrefix}-last-name`}
        label={labels.last}
        autoComplete="family-name"
        required
        data-testid={`${idPrefix}-last-name`}
        {...last}
      />
    </div>
  );
}

export function EmailField({ id, label, ...field }: { id: string; label: string } & Registered) {
  return (
    <InputField
      id={id}
      type="email"
      label={label}
      autoComplete="email"
      inputMode="email"
      required
      data-testid={id}
      {...field}
    />
  );
}

/** A password: the one the account has (`current`) or a new one, which password managers offer to make. */
export function PasswordField({
  id,
  label,
  hint,
  current = false,
  ...field
}: { id: string; label: string; hint?: string; current?: boolean } & Registered) {
  return (
    <InputField
      id={id}
      type="password"
      label={label}
      hint={hint}
      autoComplete={current ? 'current-password' : 'new-password'}
      required
      data-testid={id}
      {...field}
    />
  );
}

/** A new password with its rules as the hint, then its confirmation. */
export function NewPasswordFields({
  ids,
  labels,
  password,
  confirm,
}: {
  ids: { password: string; confirm: string };
  labels: { password: string; hint: string; confirm: string };
  password: Registered;
  confirm: Registered;
}) {
  return (
    <>
      <PasswordField id={ids.password} label={labels.password} hint={labels.hint} {...password} />
      <PasswordField id={ids.confirm} label={labels.confirm} {...confirm} />
    </>
  );
}

/** A form's submit button in its row, saying `busyLabel` while the change is on its way. */
export function SubmitRow({
  label,
  busyLabel,
  busy,
  secondary = false,
  testId,
}: {
  label: string;
  busyLabel: string;
  busy: boolean;
  secondary?: boolean;
  testId: string;
}) {
  return (
    <div className="button-row">
      <BusyButton
        busy={busy}
        label={label}
        busyLabel={busyLabel}
        className={`btn ${secondary ? 'btn--secondary' : 'btn--primary'}`}
        testId={testId}
      />
    </div>
  );
}
