import { act, renderHook } from '@testing-library/react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { useServerFieldErrors } from './server-errors.ts';

interface Values {
  disk: string;
  users: string;
}

const refusal = (fieldErrors: Record<string, string>) =>
  new ApiError(422, 'validation_error', 'Invalid input', fieldErrors);

/** A form whose answers are the hook's props, as a page's quote and submit errors are. */
function renderAnswers(initial: readonly unknown[]) {
  return renderHook(
    ({ answers }: { answers: readonly unknown[] }) => {
      const form = useForm<Values>({ defaultValues: { disk: '50', users: '5' } });
      useServerFieldErrors(form, answers);
      return form;
    },
    { initialProps: { answers: initial } },
  );
}

function errorOf(form: UseFormReturn<Values>, name: keyof Values) {
  const error = form.getFieldState(name).error;
  return error && { type: error.type, message: error.message };
}

describe('useServerFieldErrors', () => {
  it('puts each answer’s messages on their fields, a later answer winning, and takes them away when the answers go', () => {
    const { result, rerender } = renderAnswers([
      refusal({ disk: 'Too small for the files', users: 'Seven in use' }),
      refusal({ users: 'At least 7 users' }),
    ]);
    expect(errorOf(result.current, 'disk')).toEqual({ type: 'server', message: 'Too small for the files' });
    expect(errorOf(result.current, 'users')).toEqual({ type: 'server', message: 'At least 7 users' });

    rerender({ answers: [null, refusal({ users: 'At least 7 users' })] });
    expect(errorOf(result.current, 'disk')).toBeUndefined();
    expect(errorOf(result.current, 'users')).toEqual({ type: 'server', message: 'At least 7 users' });

    rerender({ answers: [null, null] });
    expect(errorOf(result.current, 'users')).toBeUndefined();
  });

  it('follows what the answers say, on every render’s new array', () => {
    const { result, rerender } = renderAnswers([refusal({ disk: 'Too small' })]);
    rerender({ answers: [refusal({ disk: 'Too big' })] });
    expect(errorOf(result.current, 'disk')).toEqual({ type: 'server', message: 'Too big' });
    // The same words in a new answer (a refetch): nothing to change, the field keeps them.
    rerender({ answers: [refusal({ disk: 'Too big' })] });
    expect(errorOf(result.current, 'disk')).toEqual({ type: 'server', message: 'Too big' });
  });

  it('leaves the form’s own message where it has put one since', () => {
    const { result, rerender } = renderAnswers([refusal({ disk: 'Too small' })]);
    act(() => result.current.setError('disk', { type: 'custom', message: 'not_a_step' }));
    rerender({ answers: [null] });
    expect(errorOf(result.current, 'disk')).toEqual({ type: 'custom', message: 'not_a_step' });
  });
});
