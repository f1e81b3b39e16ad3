// The building blocks of every workspace tab (STYLE: users, Samba, VPN, NFS and FTP share one
// pattern): a section with its list, its "add" button, its loading, failure and empty states and
// the apply summary; a row with its name, badges, apply status and actions; the error of an
// operation; a dialog with one form; and the confirmation before a deletion or another action
// that cannot be taken back.
import type { ResourceApplyStatus } from '@debesis/contract';
import type { FormEvent, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApplyStatusBadge, ApplySummary } from '../../components/ApplyStatusBadge.tsx';
import { ConfirmDialog, Dialog, DialogFormActions } from '../../components/dialog/Dialog.tsx';
import { FormAlert, InputField } from '../../components/form/fields.tsx';
import { fieldErrorText } from '../../forms/messages.ts';
import '../../i18n/workspace-messages.ts';
import type { UrlList } from '../../workspace/url-list.ts';
import { operationErrorText, useWorkspaceMutation } from '../../workspace/workspace-resource.ts';
import { LoadStatus, SectionCard } from './kit/SectionCard.tsx';
import './service-detail.css';

interface LoadState {
  isPending: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export function ResourceSection({
  title,
  lead,
  counter,
  addLabel,
  onAdd,
  addDisabled = false,
  notice,
  load,
  loadFailed,
  emptyText,
  statuses,
  list,
  testId,
  children,
}: {
  title: string;
  lead?: ReactNode;
  counter?: string;
  addLabel?: string;
  onAdd?: () => void;
  addDisabled?: boolean;
  /** Above the list: why adding is not possible, the error of a row action… */
  notice?: ReactNode;
  load: LoadState;
  loadFailed: string;
  emptyText: string;
  statuses: readonly ResourceApplyStatus[];
  /** Its page and filter (useUrlList); `children` are then the rows of the page shown. */
  list?: ListState;
  testId: string;
  children: ReactNode[];
}) {
  const { t } = useTranslation('workspace');
  return (
    <SectionCard
      id={testId}
      title={title}
      counter={counter || undefined}
      lead={lead}
      add={
        onAdd && addLabel
          ? { label: addLabel, onClick: onAdd, disabled: addDisabled, testId: `${testId}-add` }
          : undefined
      }
    >
      {notice}
      <ApplySummary statuses={statuses} testId={`${testId}-apply-summary`} />
      <LoadStatus id={testId} load={load} failure={loadFailed} />
      {list && <ListFilter list={list} testId={testId} />}
      {!load.isPending && !load.isError && children.length === 0 && (
        <p className="text-muted resource-section__empty" data-testid={`${testId}-empty`}>
          {list && list.total > 0 ? t('list.noMatch', { query: list.query }) : emptyText}
        </p>
      )}
      {children.length > 0 && (
        <ul role="list" className="resource-list" data-testid={`${testId}-list`}>
          {children}
        </ul>
      )}
      {list && <ListPager list={list} testId={testId} />}
    </SectionCard>
  );
}

type ListState = Omit<UrlList<unknown>, 'shown'>;

/** A list longer than this offers a filter (one in the address is always shown). */
const FILTER_FROM = 8;

function ListFilter({ list, testId }: { list: ListState; testId: string }) {
  const { t } = useTranslation('workspace');
  if (list.total <= FILTER_FROM && list.query === '') return null;
  return (
    <InputField
      id={`${testId}-filter`}
      type="search"
      label={t('list.filter')}
      className="resource-section__filter"
      autoComplete="off"
      value={list.query}
      onChange={(event) => list.setQuery(event.target.value)}
      data-testid={`${testId}-filter`}
    />
  );
}

function ListPager({ list, testId }: { list: ListState; testId: string }) {
  const { t } = useTranslation('workspace');
  if (list.pages <= 1) return null;
  return (
    <nav className="resource-pager" aria-label={t('list.pagination')} data-testid={`${testId}-pager`}>
      <button
        type="button"
        className="btn btn--ghost btn--small"
        disabled={list.page <= 1}
        onClick={() => list.setPage(list.page - 1)}
        data-testid={`${testId}-previous`}
      >
        {t('list.previous')}
      </button>
      <span aria-live="polite" data-testid={`${testId}-page`}>
        {t('list.page', { page: list.page, pages: list.pages })}
      </span>
      <button
        type="button"
        className="btn btn--ghost btn--small"
        disabled={list.page >= list.pages}
        onClick={() => list.setPage(list.page + 1)}
        data-testid={`${testId}-next`}
      >
        {t('list.next')}
      </button>
    </nav>
  );
}

export function ResourceRow({
  name,
  badges,
  status,
  applyError,
  details,
  actions,
  testId,
}: {
  name: string;
  badges?: ReactNode;
  /** Whether the node has its latest change; none for a resource the API keeps (a backup schedule). */
  status?: ResourceApplyStatus | undefined;
  applyError?: string | null | undefined;
  details?: ReactNode;
  actions?: ReactNode;
  testId: string;
}) {
  return (
    <li className="resource-row" data-testid={testId}>
      <div className="resource-row__head">
        <h3 className="resource-row__name">{name}</h3>
        {badges}
        {status && <ApplyStatusBadge status={status} error={applyError} testId={`${testId}-apply`} />}
      </div>
      {details && <div className="resource-row__details">{details}</div>}
      {actions && <div className="resource-row__actions">{actions}</div>}
    </li>
  );
}

/** A row's button, named with the row it acts on for screen readers ("Delete alice"). */
export function RowAction({
  label,
  target,
  onClick,
  testId,
  danger = false,
  disabled = false,
}: {
  label: string;
  target: string;
  onClick: () => void;
  testId: string;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={`btn btn--small ${danger ? 'btn--danger-outline' : 'btn--secondary'}`}
      onClick={onClick}
      disabled={disabled}
      data-testid={testId}
    >
      {label} <span className="visually-hidden">{target}</span>
    </button>
  );
}

/** An operation's failure: the spec's "Failed to …" and the server's reason. */
export function OperationError({
  error,
  failure,
  testId,
}: {
  error: unknown;
  failure: string;
  testId?: string;
}) {
  return (
    <FormAlert tone="error" testId={testId}>
      {operationErrorText(error, failure)}
    </FormAlert>
  );
}

/**
 * A dialog holding one form that makes one change: the change's failure above the fields, the
 * submit button ("Saving…" while it runs) and Cancel below them.
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  change,
  failure,
  submitLabel,
  testIds,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  change: { isPending: boolean; isError: boolean; error: unknown };
  failure: string;
  submitLabel: string;
  testIds: { dialog: string; error: string; submit: string };
  children: ReactNode;
}) {
  const { t } = useTranslation('workspace');
  return (
    <Dialog title={title} onClose={onClose} testId={testIds.dialog}>
      <form className="form" noValidate onSubmit={onSubmit}>
        {change.isError && <OperationError error={change.error} failure={failure} testId={testIds.error} />}
        {children}
        <DialogFormActions
          submitLabel={submitLabel}
          busyLabel={t('resource.saving')}
          busy={change.isPending}
          onCancel={onClose}
          testId={testIds.submit}
        />
      </form>
    </Dialog>
  );
}

/** "Delete X?" with the deletion running behind the confirm button. */
export function DeleteDialog({
  title,
  body,
  failure,
  remove,
  onClose,
  testId,
}: {
  title: string;
  body: ReactNode;
  failure: string;
  remove: () => Promise<unknown>;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation('workspace');
  const deletion = useWorkspaceMutation(remove, onClose);
  return (
    <ConfirmDialog
      title={title}
      body={body}
      confirmLabel={t('resource.delete')}
      busyLabel={t('resource.deleting')}
      busy={deletion.isPending}
      error={
        deletion.isError && (
          <OperationError error={deletion.error} failure={failure} testId={`${testId}-error`} />
        )
      }
      onConfirm={() => deletion.mutate(undefined)}
      onCancel={onClose}
      testId={testId}
    />
  );
}

/**
 * "Revoke X?" (VPN) or "Disconnect X?" (a backup client): the action running behind the confirm
 * button, its failure in the dialog.
 */
export function ConfirmAction<Result>({
  title,
  body,
  confirmLabel,
  busyLabel,
  failure,
  run,
  onDone,
  onClose,
  testId,
}: {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  failure: string;
  run: () => Promise<Result>;
  /** What the answer leads to beyond closing (backup codes to show); most lead to nothing more. */
  onDone?: (result: Result) => void;
  onClose: () => void;
  testId: string;
}) {
  const action = useWorkspaceMutation(run, (result) => {
    onDone?.(result);
    onClose();
  });
  return (
    <ConfirmDialog
      title={title}
      body={body}
      confirmLabel={confirmLabel}
      busyLabel={busyLabel}
      busy={action.isPending}
      error={
        action.isError && <OperationError error={action.error} failure={failure} testId={`${testId}-error`} />
      }
      onConfirm={() => action.mutate(undefined)}
      onCancel={onClose}
      testId={testId}
    />
  );
}

/**
 * The name of a new user, group or share: the contract's rule in the hint, and none of the
 * browser's autofill, capitals or spelling fixes, which would change a Linux name unseen.
 */
export function WorkspaceNameField({
  id,
  label,
  error,
  ...field
}: { id: string; label: string; error: string | undefined } & UseFormRegisterReturn) {
  const { t } = useTranslation('workspace');
  const { t: tApp } = useTranslation();
  return (
    <InputField
      id={id}
      label={label}
      hint={t('workspace.nameHint')}
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      required
      error={fieldErrorText(tApp, error)}
      data-testid={id}
      {...field}
    />
  );
}
