import { sambaSettingsRequestSchema } from '@debesis/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { InputField } from '../components/form/fields.tsx';
import { i18n } from '../i18n/i18n.ts';
import { serverFieldTarget } from './server-errors.ts';
import { useContractForm } from './use-contract-form.ts';

/** A form of the contract's Samba settings whose change the server refuses with `refusal`. */
function SettingsForm({ refusal, unplaced }: { refusal: ApiError; unplaced: string[] }) {
  const form = useContractForm({
    schema: sambaSettingsRequestSchema,
    defaultValues: { workgroup: 'WORKGROUP', server_string: 'Files', min_protocol: 'SMB2' },
  });
  const change = {
    mutate: (_values: unknown, { onError }: { onError: (error: unknown) => void }) => onError(refusal),
  };
  return (
    <form noValidate onSubmit={form.submitTo(change, () => unplaced.push(...form.showServerErrors(refusal)))}>
      <InputField id="workgroup" label="Workgroup" {...form.field('workgroup')} />
      <InputField id="server-string" label="Description" {...form.field('server_string')} />
      <button type="submit">Save</button>
    </form>
  );
}

const refusal = new ApiError(422, 'validation_error', 'Invalid input', {
  server_string: 'Not this description',
  share_limit: 'Too many shares',
});

describe('useContractForm', () => {
  it('puts a server field error on the field it names and leaves the others to the form', async () => {
    const unplaced: string[] = [];
    render(<SettingsForm refusal={refusal} unplaced={unplaced} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect((await screen.findByTestId('server-string-error')).textContent).toBe('Not this description');
    expect(screen.getByLabelText('Description').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('Description'));
    expect(screen.queryByTestId('workgroup-error')).toBeNull();
    expect(unplaced).toEqual(['Too many shares']);
  });

  it('refuses what the contract refuses, in the reader’s language, before any change is sent', async () => {
    const unplaced: string[] = [];
    render(<SettingsForm refusal={refusal} unplaced={unplaced} />);
    await userEvent.clear(screen.getByLabelText('Workgroup'));
    await userEvent.type(screen.getByLabelText('Workgroup'), 'no spaces');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    const english = (await screen.findByTestId('workgroup-error')).textContent;
    expect(english).toBe('Use 1 to 15 letters, numbers, hyphens and underscores');
    expect(unplaced).toEqual([]);
    await i18n.changeLanguage('lt');
    try {
      await waitFor(() => expect(screen.getByTestId('workgroup-error').textContent).not.toBe(english));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('maps a server field to the same field, a dotted path, or the one it is renamed to', () => {
    const values = { name: '', users: [{ read: true }] };
    expect(serverFieldTarget('name', values)).toBe('name');
    expect(serverFieldTarget('users.0.read', values)).toBe('users.0.read');
    expect(serverFieldTarget('email', values)).toBeNull();
    expect(serverFieldTarget('email', values, { email: 'name' })).toBe('name');
  });
});
