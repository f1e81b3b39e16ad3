// The create/edit dialog of a workspace resource, declared as a field list over the form hook:
// the contract's schema checks it, the server's field errors land on its fields, its change runs
// behind the submit button and closes it. Each field's id is its test id.
import type { DefaultValues } from 'react-hook-form';
import type { z } from 'zod';
import { useContractForm, type ContractForm, type FormSchema } from '../../../forms/use-contract-form.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { FormDialog } from '../resource-parts.tsx';
import { FieldList, type FieldBuilders, type FormFieldSpec } from './form-fields.tsx';

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
  /** The fields in order; `false` leaves one out. */
  fields: (f: FieldBuilders<Schema>) => readonly (FormFieldSpec<Schema> | false)[];
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
      {/* The same form, but TypeScript cannot relate react-hook-form's deep error types across
          the two generic functions (TS2719), so it is named once more here. */}
      <FieldList<Schema> form={form as unknown as ContractForm<Schema>} fields={fields} />
    </FormDialog>
  );
}
