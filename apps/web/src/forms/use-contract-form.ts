// One hook for every form of the app: react-hook-form with the contract's zod schema (so the form
// refuses what the server would, in the same words: forms/messages.ts turns the codes into the
// reader's language), and the server's field errors put on the fields they name. What each form
// wrote again before — resolver, error map, `fieldErrorText(tApp, errors.x?.message)`, the
// setError loop, the submit that runs the change — is here once.
import { zodResolver } from '@hookform/resolvers/zod';
import type { FormEvent } from 'react';
import {
  get,
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { fieldErrorText, formErrorMap } from './messages.ts';
import { showServerFieldErrors } from './server-errors.ts';

/** A zod schema whose input is a form's values. */
export type FormSchema = z.ZodType<FieldValues, FieldValues>;

export interface ContractFormOptions<Schema extends FormSchema> {
  schema: Schema;
  defaultValues: DefaultValues<z.input<Schema>>;
  /** Server field names that differ from the form's (`email` → `new_email`). */
  renamed?: Readonly<Partial<Record<string, Path<z.input<Schema>>>>>;
  mode?: 'onSubmit' | 'onBlur' | 'onChange' | 'onTouched' | 'all';
}

/** A change the form submits: a react-query mutation fits. */
interface Change<Variables> {
  mutate: (variables: Variables, options: { onError: (error: unknown) => void }) => void;
}

export type ContractForm<Schema extends FormSchema> = UseFormReturn<
  z.input<Schema>,
  unknown,
  z.output<Schema>
> & {
  /** The field's message in the reader's language, or undefined. */
  errorText: (name: Path<z.input<Schema>>) => string | undefined;
  /** `register(name)` and its message, to spread into an InputField, SelectField or CheckboxField. */
  field: (
    name: Path<z.input<Schema>>,
    options?: RegisterOptions<z.input<Schema>, Path<z.input<Schema>>>,
  ) => UseFormRegisterReturn & { error: string | undefined };
  /** Puts a server refusal's field messages on the fields; returns the messages no field took. */
  showServerErrors: (error: unknown) => string[];
  /** A submit handler: the schema's checks, then `change` with the parsed values; its field errors land here. */
  submitTo: (
    change: Change<z.output<Schema>>,
    onError?: (error: unknown) => void,
  ) => (event: FormEvent<HTMLFormElement>) => void;
};

export function useContractForm<Schema extends FormSchema>({
  schema,
  defaultValues,
  renamed,
  mode,
}: ContractFormOptions<Schema>): ContractForm<Schema> {
  type Values = z.input<Schema>;
  const { t } = useTranslation();
  const form = useForm<Values, unknown, z.output<Schema>>({
    resolver: zodResolver(schema, { error: formErrorMap }),
    defaultValues,
    ...(mode && { mode }),
  });
  const { errors } = form.formState;

  const errorText = (name: Path<Values>) => {
    const fieldError: { message?: string } | undefined = get(errors, name);
    return fieldErrorText(t, fieldError?.message);
  };

  const showServerErrors = (error: unknown) =>
    showServerFieldErrors(error, { setError: form.setError, values: form.getValues() }, renamed).unplaced;

  return {
    ...form,
    errorText,
    field: (name, options) => ({ ...form.register(name, options), error: errorText(name) }),
    showServerErrors,
    submitTo: (change, onError) => (event) =>
      void form.handleSubmit((values) =>
        change.mutate(values, {
          onError: (error) => {
            showServerErrors(error);
            onError?.(error);
          },
        }),
      )(event),
  };
}
