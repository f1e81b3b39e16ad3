// The create/edit dialog of a workspace resource, declared as a field list over the form hook:
// the contract's schema checks it, the server's field errors land on its fields, its change runs
// behind the submit button and closes it. Each field's id is its test id.
import type { InputHTMLAttributes, ReactNode } from 'react';
import type { DefaultValues, Path } from 'react-hook-form';
import type { z } from 'zod';
import { CheckboxField, InputField } from '../../../components/form/fields.tsx';
import { useContractForm, type ContractForm, type FormSchema } from '../../../forms/use-contract-form.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { FormDialog, WorkspaceNameField } from '../resource-parts.tsx';

type Input = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>;

/** A field of the dialog: a text, a workspace name (the contract's rule as hint), a checkbox, a group or the tab's own. */
export type FormFieldSpec<Schema extends FormSchema> =
  | {
      kind: 'text' | 'name' | 'checkbox';
      name: Path<z.input<Schema>>;
      id: string;
      label: string;
      hint?: string;
      optional?: boolean;
      input?: Input;
    }
  | { kind: 'group'; legend: string; className: string; fields: readonly FormFieldSpec<Schema>[] }
  | { kind: 'custom'; key: string; render: (form: ContractForm<Schema>) => ReactNode };

/** No autofill, capitals or spelling fixes: a path or name as typed. */
export const VERBATIM: Input = { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false };

function FieldOf<Schema extends FormSchema>({
  spec,
  form,
}: {
  spec: FormFieldSpec<Schema>;
  form: ContractForm<Schema>;
}): ReactNode {
  switch (spec.kind) {
    case 'custom':
      return spec.render(form);
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
          data-testid={spec.id}
          {...spec.input}
          {...form.field(spec.name)}
        />
      );
    case 'checkbox':
      return (
        <CheckboxField
          id={spec.id}
          label={spec.label}
          hint={spec.hint}
          data-testid={spec.id}
          {...form.field(spec.name)}
        />
      );
  }
}

export function ResourceFormDialog<Schema extends FormSchema>({
  title,
  schema,
  defaultValues,
  fields,
  save,
  failure,
  submitLabel,
  testIds,
  onClose,
}: {
  title: string;
  schema: Schema;
  defaultValues: DefaultValues<z.input<Schema>>;
  fields: readonly (FormFieldSpec<Schema> | false)[];
  /** The change, with the schema's parsed values. */
  save: (values: z.output<Schema>) => Promise<unknown>;
  failure: string;
  submitLabel: string;
  testIds: { dialog: string; error: string; submit: string };
  onClose: () => void;
}) {
  const form = useContractForm({ schema, defaultValues });
  const change = useWorkspaceMutation(save, onClose);
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      onSubmit={form.submitTo(change)}
      change={change}
      failure={failure}
      submitLabel={submitLabel}
      testIds={testIds}
    >
      {fields.map(
        (field, index) =>
          field && <FieldOf key={'id' in field ? field.id : index} spec={field} form={form} />,
      )}
    </FormDialog>
  );
}
