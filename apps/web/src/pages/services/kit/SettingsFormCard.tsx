// A workspace settings card declared in a few lines: its form (the contract's schema, the values
// it starts from, its fields as a list) and the change that saves it; "Saved." or the change's
// failure above the fields, Save below them. Test ids: `<testId>-form`, `-saved`, `-error`,
// `-submit`.
import type { DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormAlert } from '../../../components/form/fields.tsx';
import { useContractForm, type ContractForm, type FormSchema } from '../../../forms/use-contract-form.ts';
import { useWorkspaceMutation } from '../../../workspace/workspace-resource.ts';
import { OperationError } from '../resource-parts.tsx';
import { FieldList, type FieldBuilders, type FormFieldSpec } from './form-fields.tsx';
import { BusyButton } from '../../../components/form/BusyButton.tsx';

export function SettingsFormCard<Schema extends FormSchema, Saved>({
  title,
  saved,
  failure,
  testId,
  schema,
  defaultValues,
  save,
  shown,
  fields,
}: {
  title: string;
  /** What the card says once saved. */
  saved: string;
  failure: string;
  testId: string;
  schema: Schema;
  defaultValues: DefaultValues<z.input<Schema>>;
  /** The change, with the schema's parsed values. */
  save: (values: z.output<Schema>) => Promise<Saved>;
  /** The values to show once saved, when the server keeps them otherwise than typed. */
  shown?: (saved: Saved) => DefaultValues<z.input<Schema>>;
  fields: (f: FieldBuilders<Schema>) => readonly (FormFieldSpec<Schema> | false)[];
}) {
  const { t } = useTranslation('workspace');
  const form = useContractForm({ schema, defaultValues });
  const change = useWorkspaceMutation(save, (answer) => shown && form.reset(shown(answer)));
  return (
    <section className="card resource-section" aria-labelledby={`${testId}-title`}>
      <h2 id={`${testId}-title`} className="resource-section__title">
        {title}
      </h2>
      <form className="form" noValidate data-testid={`${testId}-form`} onSubmit={form.submitTo(change)}>
        {change.isSuccess && (
          <FormAlert tone="success" testId={`${testId}-saved`}>
            {saved}
          </FormAlert>
        )}
        {change.isError && (
          <OperationError error={change.error} failure={failure} testId={`${testId}-error`} />
        )}
        {/* As in ResourceFormDialog: the same form, named once more for TypeScript (TS2719). */}
        <FieldList<Schema> form={form as unknown as ContractForm<Schema>} fields={fields} />
        <div className="button-row">
          <BusyButton
            busy={change.isPending}
            label={t('resource.save')}
            busyLabel={t('resource.saving')}
            testId={`${testId}-submit`}
          />
        </div>
      </form>
    </section>
  );
}
