// A form's fields declared as a list over the form hook, for the kit's dialogs and settings cards:
// a text, a workspace name (the contract's rule as hint), a whole number, a checkbox, a select, a
// group, an access list (who may use a resource, with per-row permissions) or the tab's own. Each
// field's id is its test id unless it names another.
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useWatch, type Path } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField, InputField, SelectField } from '../../../components/form/fields.tsx';
import type { ContractForm, FormSchema } from '../../../forms/use-contract-form.ts';
import { WorkspaceNameField } from '../resource-parts.tsx';

type Input = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

/** A field: a text, a workspace name (the contract's rule as hint), a checkbox, a group or the tab's own. */
export type FormFieldSpec<Schema extends FormSchema> =
  | {
      kind: 'text' | 'name' | 'checkbox';
      name: Path<z.input<Schema>>;
      id: string;
      label: string;
      hint?: string;
      optional?: boolean;
      input?: Input;
      testId?: string;
    }
  | {
      /** A whole number (the form's value is a number; an empty field is NaN, the schema's to refuse). */
      kind: 'number';
      name: Path<z.input<Schema>>;
      id: string;
      label: string;
      hint?: string;
      min: number;
      max: number;
      testId?: string;
    }
  | {
      kind: 'select';
      name: Path<z.input<Schema>>;
      id: string;
      label: string;
      hint?: string;
      choices: readonly { value: string | number; label: string }[];
      /** The value is a number (a weekday): the option's text is read back as one. */
      numeric?: boolean;
      testId?: string;
    }
  | { kind: 'group'; legend: string; className: string; fields: readonly FormFieldSpec<Schema>[] }
  | AccessSpec<Schema>
  | { kind: 'custom'; key: string; render: (form: ContractForm<Schema>) => ReactNode };

/**
 * Who may use the resource: the array field `name` of rows `{ name, allowed, ...permissions }`, one
 * checkbox per row (`<id>-<row>`), and with `permissions`, a toggle for each once the row is
 * ticked (`<id>-<row>-<permission>`), the first one carrying the rows' message.
 */
interface AccessSpec<Schema extends FormSchema> {
  kind: 'access';
  name: Path<z.input<Schema>>;
  id: string;
  legend: string;
  hint: string;
  empty: string;
  permissions?: {
    keys: readonly string[];
    label: (permission: string) => string;
    /** The toggles' group, for screen readers ("Permissions of alice"). */
    groupLabel: (row: string) => string;
  };
}

/**
 * Rows of an access list: every candidate by name, `allowed` ticked for the granted ones (entries
 * with their permissions, or bare names), `absent` the permissions of the others.
 */
export function accessRows<Extra extends object>(
  candidates: readonly { name: string }[],
  granted: readonly (string | ({ name: string } & Extra))[] | undefined,
  absent: Extra,
): (Extra & { name: string; allowed: boolean })[] {
  return candidates.map(({ name }) => {
    const entry = granted?.find(
      (candidate) => (typeof candidate === 'string' ? candidate : candidate.name) === name,
    );
    if (entry === undefined) return { ...absent, name, allowed: false };
    return { ...absent, ...(typeof entry === 'string' ? {} : entry), name, allowed: true };
  });
}

/** A form's start values: for each key of a new item's, the item's own where it has one. */
export function startValues<Values extends Record<string, unknown>>(
  fresh: Values,
  item: { [Key in keyof Values]?: Values[Key] | null } | null,
): Values {
  if (!item) return fresh;
  const own: Partial<Record<keyof Values, unknown>> = item;
  return Object.fromEntries(Object.entries(fresh).map(([key, value]) => [key, own[key] ?? value])) as Values;
}

/** The granted rows of an access list, as the contract takes them: without `allowed`. */
export function grantedRows<Row extends { allowed: boolean }>(rows: readonly Row[]): Omit<Row, 'allowed'>[] {
  return rows.filter((row) => row.allowed).map(({ allowed: _allowed, ...granted }) => granted);
}

function AccessList<Schema extends FormSchema>({
  spec,
  form,
}: {
  spec: AccessSpec<Schema>;
  form: ContractForm<Schema>;
}) {
  const rows = (useWatch({ control: form.control, name: spec.name }) ?? []) as {
    name: string;
    allowed: boolean;
  }[];
  const path = (index: number, key: string) => `${spec.name}.${index}.${key}` as Path<z.input<Schema>>;
  return (
    <fieldset className="fieldset share-access">
      <legend className="field__label">{spec.legend}</legend>
      <p className="field__hint">{spec.hint}</p>
      {rows.length === 0 && <p className="text-muted">{spec.empty}</p>}
      {rows.map((row, index) => {
        const id = `${spec.id}-${row.name}`;
        const permissions = spec.permissions;
        if (!permissions) {
          return (
            <CheckboxField
              key={row.name}
              id={id}
              label={row.name}
              data-testid={id}
              {...form.register(path(index, 'allowed'))}
            />
          );
        }
        const error = form.errorText(path(index, permissions.keys[0] ?? 'allowed'));
        return (
          <div key={row.name} className="share-user" data-testid={id}>
            <CheckboxField
              id={id}
              label={row.name}
              data-testid={`${id}-allowed`}
              {...form.register(path(index, 'allowed'))}
            />
            {row.allowed && (
              <div
                className="share-user__permissions"
                role="group"
                aria-label={permissions.groupLabel(row.name)}
                aria-describedby={error ? `${id}-error` : undefined}
              >
                {permissions.keys.map((permission) => (
                  <label key={permission} className="permission-toggle">
                    <input
                      type="checkbox"
                      className="checkbox"
                      data-testid={`${id}-${permission}`}
                      {...form.register(path(index, permission))}
                    />
                    {permissions.label(permission)}
                  </label>
                ))}
              </div>
            )}
            {error && (
              <p id={`${id}-error`} className="field__error">
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

type Name<Schema extends FormSchema> = Path<z.input<Schema>>;
type Options = { hint?: string; optional?: boolean; input?: Input; testId?: string };

/** Short ways to declare the fields: `f.text('path', 'share-path', label, { hint })`. */
export function builders<Schema extends FormSchema>() {
  return {
    text: (name: Name<Schema>, id: string, label: string, options: Options = {}) =>
      ({ kind: 'text', name, id, label, ...options }) as const,
    /** A workspace name: the contract's rule as its hint, typed as it is. */
    name: (name: Name<Schema>, id: string, label: string) => ({ kind: 'name', name, id, label }) as const,
    /** `input`: more of the box's attributes (`disabled`, with the hint saying why). */
    checkbox: (name: Name<Schema>, id: string, label: string, hint?: string, input?: Input) =>
      ({
        kind: 'checkbox',
        name,
        id,
        label,
        ...(hint !== undefined && { hint }),
        ...(input !== undefined && { input }),
      }) as const,
    /** A whole number from `min` to `max`. */
    number: (
      name: Name<Schema>,
      id: string,
      label: string,
      options: Pick<Options, 'hint' | 'testId'> & { min: number; max: number },
    ) => ({ kind: 'number', name, id, label, ...options }) as const,
    select: (
      name: Name<Schema>,
      id: string,
      label: string,
      choices: readonly { value: string | number; label: string }[],
      options: Pick<Options, 'hint' | 'testId'> & { numeric?: boolean } = {},
    ) => ({ kind: 'select', name, id, label, choices, ...options }) as const,
    group: (legend: string, className: string, fields: readonly FormFieldSpec<Schema>[]) =>
      ({ kind: 'group', legend, className, fields }) as const,
    access: (name: Name<Schema>, id: string, texts: Omit<AccessSpec<Schema>, 'kind' | 'name' | 'id'>) =>
      ({ kind: 'access', name, id, ...texts }) as const,
  };
}
export type FieldBuilders<Schema extends FormSchema> = ReturnType<typeof builders<Schema>>;

/** No autofill, capitals or spelling fixes: a path or name as typed. */
export const VERBATIM: Input = { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false };

export function FieldOf<Schema extends FormSchema>({
  spec,
  form,
}: {
  spec: FormFieldSpec<Schema>;
  form: ContractForm<Schema>;
}): ReactNode {
  switch (spec.kind) {
    case 'custom':
      return spec.render(form);
    case 'access':
      return <AccessList spec={spec} form={form} />;
    case 'group':
      return (
        <fieldset className={`fieldset ${spec.className}`}>
          <legend className="field__label">{spec.legend}</legend>
          {spec.fields.map((field) => (
            <FieldOf
              key={'id' in field ? field.id : 'key' in field ? field.key : field.legend}
              spec={field}
              form={form}
            />
          ))}
        </fieldset>
      );
    case 'name':
      return <WorkspaceNameField id={spec.id} label={spec.label} {...form.field(spec.name)} />;
    case 'text':
      return (
        <InputField
          id={spec.id}
          label={spec.label}
          hint={spec.hint}
          optional={spec.optional}
          data-testid={spec.testId ?? spec.id}
          {...spec.input}
          {...form.field(spec.name)}
        />
      );
    case 'number':
      return (
        <InputField
          id={spec.id}
          label={spec.label}
          hint={spec.hint}
          type="number"
          inputMode="numeric"
          min={spec.min}
          max={spec.max}
          step={1}
          required
          data-testid={spec.testId ?? spec.id}
          {...form.field(spec.name, { valueAsNumber: true })}
        />
      );
    case 'checkbox':
      return (
        <CheckboxField
          id={spec.id}
          label={spec.label}
          hint={spec.hint}
          data-testid={spec.testId ?? spec.id}
          {...spec.input}
          {...form.field(spec.name)}
        />
      );
    case 'select':
      return (
        <SelectField
          id={spec.id}
          label={spec.label}
          hint={spec.hint}
          data-testid={spec.testId ?? spec.id}
          {...form.field(spec.name, spec.numeric ? { valueAsNumber: true } : undefined)}
        >
          {spec.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
      );
  }
}

/** The fields of a list in order; `false` leaves one out. */
export function FieldList<Schema extends FormSchema>({
  form,
  fields,
}: {
  form: ContractForm<Schema>;
  fields: (f: FieldBuilders<Schema>) => readonly (FormFieldSpec<Schema> | false)[];
}) {
  return fields(builders<Schema>()).map(
    (field, index) =>
      field && <FieldOf<Schema> key={'id' in field ? field.id : index} spec={field} form={form} />,
  );
}
