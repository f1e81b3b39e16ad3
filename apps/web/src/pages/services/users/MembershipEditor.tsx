// Group membership seen from either side (spec §3 "Group": each member primary or supplementary;
// §5: primary defaults to false): a user's groups, or a group's members. Lists the memberships
// with their role, adds one (with the primary choice, unticked by default), makes one primary
// and removes one. The caller says which side it is and runs the change.
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField, SelectField } from '../../../components/form/fields.tsx';
import '../../../i18n/workspace-messages.ts';
import { OperationError, RowAction } from '../resource-parts.tsx';

export interface Membership {
  name: string;
  primary: boolean;
}

export type MembershipChange =
  | { kind: 'add'; name: string; primary: boolean }
  | { kind: 'makePrimary'; name: string }
  | { kind: 'remove'; name: string };

export function MembershipEditor({
  memberships,
  candidates,
  candidateLabel,
  emptyText,
  loading,
  loadFailed,
  busy,
  change,
  error,
  failure,
  onChange,
  testId,
}: {
  memberships: readonly Membership[];
  /** Names that may be added (the other side's, not yet members). */
  candidates: readonly string[];
  candidateLabel: string;
  emptyText: string;
  loading: boolean;
  loadFailed: string | null;
  busy: boolean;
  change: MembershipChange | undefined;
  error: unknown;
  failure: (change: MembershipChange) => string;
  onChange: (change: MembershipChange) => void;
  testId: string;
}) {
  const { t } = useTranslation(['usersTab', 'workspace']);
  const id = useId();
  const [selected, setSelected] = useState('');
  const [primary, setPrimary] = useState(false);
  const chosen = candidates.includes(selected) ? selected : (candidates[0] ?? '');

  function add(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    if (!chosen) return;
    onChange({ kind: 'add', name: chosen, primary });
    setPrimary(false);
  }

  return (
    <div className="membership" data-testid={testId}>
      {loading && (
        <p className="text-muted" role="status">
          {t('workspace:resource.loading')}
        </p>
      )}
      {loadFailed && <OperationError error={null} failure={loadFailed} />}
      {error !== null && change && (
        <OperationError error={error} failure={failure(change)} testId={`${testId}-error`} />
      )}
      {!loading && memberships.length === 0 && (
        <p className="text-muted" data-testid={`${testId}-empty`}>
          {emptyText}
        </p>
      )}
      {memberships.length > 0 && (
        <ul role="list" className="membership__list">
          {memberships.map((membership) => (
            <li
              key={membership.name}
              className="membership__item"
              data-testid={`${testId}-${membership.name}`}
            >
              <span className="membership__name">{membership.name}</span>
              <span className={`badge ${membership.primary ? 'badge--info' : ''}`}>
                {membership.primary ? t('membership.primary') : t('membership.supplementary')}
              </span>
              <span className="membership__actions">
                {!membership.primary && (
                  <RowAction
                    label={t('membership.makePrimary')}
                    target={membership.name}
                    disabled={busy}
                    onClick={() => onChange({ kind: 'makePrimary', name: membership.name })}
                    testId={`${testId}-${membership.name}-primary`}
                  />
                )}
                <RowAction
                  label={t('membership.remove')}
                  target={membership.name}
                  danger
                  disabled={busy}
                  onClick={() => onChange({ kind: 'remove', name: membership.name })}
                  testId={`${testId}-${membership.name}-remove`}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
      {candidates.length > 0 && (
        <form className="membership__add" onSubmit={add} noValidate>
          <SelectField
            id={`${id}-name`}
            label={candidateLabel}
            value={chosen}
            onChange={(event) => setSelected(event.target.value)}
            data-testid={`${testId}-candidate`}
          >
            {candidates.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </SelectField>
          <CheckboxField
            id={`${id}-primary`}
            label={t('membership.asPrimary')}
            hint={t('membership.asPrimaryHint')}
            checked={primary}
            onChange={(event) => setPrimary(event.target.checked)}
            data-testid={`${testId}-as-primary`}
          />
          <button type="submit" className="btn btn--secondary" disabled={busy} data-testid={`${testId}-add`}>
            {t('membership.add')}
          </button>
        </form>
      )}
    </div>
  );
}
