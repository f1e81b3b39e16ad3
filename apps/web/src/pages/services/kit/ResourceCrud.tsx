// The list, create, edit and delete of one kind of workspace resource (shares, users, groups, VPN
// users, NFS exports, backup schedules and clients), declared instead of written out: the section with its loading, failure,
// empty state and page and filter in the address; a row per item with its badges, facts and
// actions (Edit and Delete named for the row, a tab's own in between); the create/edit dialog the
// tab declares as a form (or writes with ResourceFormDialog); the confirmation before a deletion.
// Test ids follow the row's prefix: `<row>-<key>`, `-edit`, `-delete`, `<row>-delete-dialog`,
// and the declared form's `<row>-dialog`, `<row>-save-error`, `<row>-submit`. A row's key is its
// name unless the tab names it otherwise (a backup schedule: its id, names may repeat).
import type { ResourceApplyStatus } from '@debesis/contract';
import { useState, type ReactNode } from 'react';
import type { DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { FormSchema } from '../../../forms/use-contract-form.ts';
import { useUrlList } from '../../../workspace/url-list.ts';
import { DeleteDialog, ResourceRow, ResourceSection, RowAction } from '../resource-parts.tsx';
import type { FieldBuilders, FormFieldSpec } from './form-fields.tsx';
import { ResourceFormDialog } from './ResourceFormDialog.tsx';

/**
 * An item's apply status as the node reported it; a resource the API keeps by itself (a backup
 * schedule: the node only runs what it asks) has none, and its rows show none.
 */
type Applied =
  | { apply_status: ResourceApplyStatus; apply_error: string | null }
  | { apply_status?: undefined; readonly [field: string]: unknown };

/** One fact of a row: its term, its value, and the value's test id when a test reads it. */
export interface Fact {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** A fact as a term and its value, inside a description list. */
export function FactRow({ fact }: { fact: Fact }) {
  return (
    <div>
      <dt>{fact.label}</dt>
      <dd data-testid={fact.testId}>{fact.value}</dd>
    </div>
  );
}

/**
 * Facts in a description list: a row's (`resource-facts`) unless a card names its own list style
 * (`service-facts`); a fact given as false is left out, `children` follow the facts.
 */
export function Facts({
  facts,
  className = 'resource-facts',
  testId,
  children,
}: {
  facts: readonly (Fact | false | null | undefined | '')[];
  className?: string;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <dl className={className} data-testid={testId}>
      {facts.map((fact) => fact && <FactRow key={fact.label} fact={fact} />)}
      {children}
    </dl>
  );
}

/** The create (item null) and edit form of an item, declared: the kit puts it in a dialog. */
export interface ResourceForm<Item, Schema extends FormSchema> {
  schema: (item: Item | null) => Schema;
  values: (item: Item | null) => DefaultValues<z.input<Schema>>;
  fields: (f: FieldBuilders<Schema>, item: Item | null) => readonly (FormFieldSpec<Schema> | false)[];
  /** The change, with the schema's parsed values. */
  save: (values: z.output<Schema>, item: Item | null) => Promise<unknown>;
  texts: {
    createTitle: string;
    editTitle: (name: string) => string;
    create: string;
    createFailed: string;
    updateFailed: string;
  };
}

export interface ResourceCrudProps<Item extends Applied, Schema extends FormSchema> {
  /** The section: title, lead, add button, notice, load state, texts and its test id. */
  section: {
    title: string;
    lead?: ReactNode;
    counter?: string;
    addLabel?: string;
    notice?: ReactNode;
    loadFailed: string;
    emptyText: string;
    testId: string;
  };
  load: { isPending: boolean; isError: boolean; refetch: () => unknown };
  items: readonly Item[];
  /** The item's name: its row's title, what the filter reads and, unless `keyOf` says, its key. */
  nameOf: (item: Item) => string;
  /** Its key: the row's React key, its test id (`<row>-<key>`) and what `remove.run` is given. */
  keyOf?: (item: Item) => string;
  /** The test-id prefix of its rows and dialogs ("share"). */
  row: string;
  /** The prefix of its page and filter in the address, when a page lists more than one ("groups-"). */
  urlPrefix?: string;
  badges?: (item: Item) => ReactNode;
  details?: (item: Item) => ReactNode;
  /** A tab's own row actions, between Edit and Delete. */
  actions?: (item: Item) => ReactNode;
  /** True for an item the owner may neither edit nor delete (the provider's own): no Edit, no Delete. */
  locked?: (item: Item) => boolean;
  /** False while what the dialogs need is still loading: Add and Edit wait. */
  ready?: boolean;
  /** The create (item null) and edit form; without it or `dialog`, no Add and no Edit. */
  form?: ResourceForm<Item, Schema>;
  /** A create and edit dialog of the tab's own, instead of `form`. */
  dialog?: (item: Item | null, close: () => void) => ReactNode;
  /** Only creating, no editing (the dialog is then called with null only). */
  createOnly?: boolean;
  remove?: {
    title: (name: string) => string;
    body: ReactNode;
    failure: string;
    /** Given the item's key (its name unless `keyOf` says). */
    run: (key: string) => Promise<unknown>;
  };
}

type Open<Item> = { kind: 'form'; item: Item | null } | { kind: 'delete'; item: Item };

export function ResourceCrud<Item extends Applied, Schema extends FormSchema = FormSchema>({
  section,
  load,
  items,
  nameOf,
  keyOf = nameOf,
  row,
  urlPrefix,
  badges,
  details,
  actions,
  locked,
  ready = true,
  form,
  dialog = form &&
    ((item, close) => (
      <DeclaredFormDialog form={form} item={item} nameOf={nameOf} row={row} onClose={close} />
    )),
  createOnly = false,
  remove,
}: ResourceCrudProps<Item, Schema>) {
  const { t } = useTranslation('workspace');
  const [open, setOpen] = useState<Open<Item> | null>(null);
  const list = useUrlList(items, nameOf, urlPrefix === undefined ? undefined : { prefix: urlPrefix });
  const close = () => setOpen(null);
  return (
    <>
      <ResourceSection
        {...section}
        {...(dialog && { onAdd: () => setOpen({ kind: 'form', item: null }) })}
        addDisabled={!ready}
        load={load}
        statuses={items.flatMap((item) => (item.apply_status ? [item.apply_status] : []))}
        list={list}
      >
        {list.shown.map((item) => {
          const name = nameOf(item);
          const key = keyOf(item);
          const changeable = locked?.(item) !== true;
          return (
            <ResourceRow
              key={key}
              name={name}
              testId={`${row}-${key}`}
              status={item.apply_status}
              applyError={item.apply_status ? item.apply_error : null}
              badges={badges?.(item)}
              details={details?.(item)}
              actions={
                <>
                  {dialog && !createOnly && changeable && (
                    <RowAction
                      label={t('resource.edit')}
                      target={name}
                      disabled={!ready}
                      onClick={() => setOpen({ kind: 'form', item })}
                      testId={`${row}-${key}-edit`}
                    />
                  )}
                  {actions?.(item)}
                  {remove && changeable && (
                    <RowAction
                      label={t('resource.delete')}
                      target={name}
                      danger
                      onClick={() => setOpen({ kind: 'delete', item })}
                      testId={`${row}-${key}-delete`}
                    />
                  )}
                </>
              }
            />
          );
        })}
      </ResourceSection>
      {open?.kind === 'form' && dialog?.(open.item, close)}
      {open?.kind === 'delete' && remove && (
        <DeleteDialog
          title={remove.title(nameOf(open.item))}
          body={remove.body}
          failure={remove.failure}
          remove={() => remove.run(keyOf(open.item))}
          onClose={close}
          testId={`${row}-delete-dialog`}
        />
      )}
    </>
  );
}

function DeclaredFormDialog<Item, Schema extends FormSchema>({
  form,
  item,
  nameOf,
  row,
  onClose,
}: {
  form: ResourceForm<Item, Schema>;
  item: Item | null;
  nameOf: (item: Item) => string;
  row: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('workspace');
  return (
    <ResourceFormDialog<Schema>
      title={item ? form.texts.editTitle(nameOf(item)) : form.texts.createTitle}
      schema={form.schema(item)}
      defaultValues={form.values(item)}
      save={(values) => form.save(values, item)}
      failure={item ? form.texts.updateFailed : form.texts.createFailed}
      submitLabel={item ? t('resource.save') : form.texts.create}
      testIds={{ dialog: `${row}-dialog`, error: `${row}-save-error`, submit: `${row}-submit` }}
      onClose={onClose}
      fields={(f) => form.fields(f, item)}
    />
  );
}
