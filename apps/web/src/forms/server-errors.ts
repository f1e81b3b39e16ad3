// The server's per-field refusals (AppError `fields`, spec §8) put next to the fields they name.
// A form takes the messages of the fields it has; the others stay for its form-level message.
import { useEffect, useRef } from 'react';
import { get, type FieldValues, type Path, type UseFormReturn, type UseFormSetError } from 'react-hook-form';
import { isApiError } from '../api/client.ts';

/**
 * Which form field a server field lands on: the same name when the form has it (dotted paths such
 * as `users.0.read` included), or the one `renamed` names (`email` → `new_email`).
 */
export function serverFieldTarget<Values extends FieldValues>(
  field: string,
  values: Values,
  renamed: Readonly<Partial<Record<string, Path<Values>>>> = {},
): Path<Values> | null {
  const target = renamed[field];
  if (target) return target;
  return get(values, field) === undefined ? null : (field as Path<Values>);
}

/** The server's per-field messages, by the server's field names. */
type FieldMessages = Readonly<Record<string, string>>;

function placeFieldMessages<Values extends FieldValues>(
  messages: FieldMessages,
  form: { setError: UseFormSetError<Values>; values: Values },
  renamed: Readonly<Partial<Record<string, Path<Values>>>> | undefined,
  focus: boolean,
): { placed: number; fields: Path<Values>[]; unplaced: string[] } {
  const fields: Path<Values>[] = [];
  const unplaced: string[] = [];
  for (const [field, message] of Object.entries(messages)) {
    const target = serverFieldTarget(field, form.values, renamed);
    if (!target) {
      unplaced.push(message);
      continue;
    }
    form.setError(target, { type: 'server', message }, { shouldFocus: focus && fields.length === 0 });
    fields.push(target);
  }
  return { placed: fields.length, fields, unplaced };
}

/**
 * Sets the server's field messages (already in the reader's language) on the fields the form has,
 * the first one focused (unless `focus` is false). Returns the fields that took one and the messages
 * no field took, for the form-level message.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  form: { setError: UseFormSetError<Values>; values: Values },
  renamed?: Readonly<Partial<Record<string, Path<Values>>>>,
  { focus = true }: { focus?: boolean } = {},
): { placed: number; fields: Path<Values>[]; unplaced: string[] } {
  return placeFieldMessages(isApiError(error) ? error.fieldErrors : {}, form, renamed, focus);
}

/**
 * The field errors of answers that follow the form's values (a live quote's refusal, the last
 * submit's): each answer's messages on their fields, later answers winning, taken away when the
 * answer goes (the values changed) unless the form's own check has put its message there since.
 * Focus stays where the reader is typing.
 */
export function useServerFieldErrors<Values extends FieldValues>(
  form: Pick<
    UseFormReturn<Values, unknown, unknown>,
    'setError' | 'clearErrors' | 'getValues' | 'getFieldState'
  >,
  answers: readonly unknown[],
): void {
  const { setError, clearErrors, getValues, getFieldState } = form;
  // What the answers say, as one string: the effect follows the messages, not each render's new
  // array of answers, and an answer saying again what is shown (a refetch) changes nothing.
  const said = JSON.stringify(answers.map((answer) => (isApiError(answer) ? answer.fieldErrors : {})));
  const shown = useRef<Path<Values>[]>([]);
  useEffect(() => {
    for (const name of shown.current) {
      if (getFieldState(name).error?.type === 'server') clearErrors(name);
    }
    const values = getValues();
    shown.current = (JSON.parse(said) as FieldMessages[]).flatMap(
      (messages) => placeFieldMessages(messages, { setError, values }, undefined, false).fields,
    );
  }, [said, setError, clearErrors, getValues, getFieldState]);
}
