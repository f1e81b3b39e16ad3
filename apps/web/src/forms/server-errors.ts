// The server's per-field refusals (AppError `fields`, spec §8) put next to the fields they name.
// A form takes the messages of the fields it has; the others stay for its form-level message.
import { get, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
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

/**
 * Sets the server's field messages (already in the reader's language) on the fields the form has,
 * the first one focused. Returns the messages no field took, for the form-level message.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  form: { setError: UseFormSetError<Values>; values: Values },
  renamed?: Readonly<Partial<Record<string, Path<Values>>>>,
): { placed: number; unplaced: string[] } {
  if (!isApiError(error)) return { placed: 0, unplaced: [] };
  const unplaced: string[] = [];
  let placed = 0;
  for (const [field, message] of Object.entries(error.fieldErrors)) {
    const target = serverFieldTarget(field, form.values, renamed);
    if (!target) {
      unplaced.push(message);
      continue;
    }
    form.setError(target, { type: 'server', message }, { shouldFocus: placed === 0 });
    placed += 1;
  }
  return { placed, unplaced };
}
