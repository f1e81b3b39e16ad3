import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/api-error.ts';
import { groupFormSchema } from '../workspace-forms.ts';
import { ResourceCrud } from './ResourceCrud.tsx';
import { ResourceFormDialog } from './ResourceFormDialog.tsx';

interface Note {
  name: string;
  description: string;
  apply_status: 'applied';
  apply_error: null;
}

const notes: Note[] = [{ name: 'first', description: 'One', apply_status: 'applied', apply_error: null }];

/** A whole new resource list, declared: what a new tab writes for its list. */
function Notes({
  save,
  remove,
}: {
  save: (values: unknown) => Promise<unknown>;
  remove: (name: string) => Promise<unknown>;
}) {
  return (
    <ResourceCrud
      section={{
        title: 'Notes',
        addLabel: 'Add note',
        loadFailed: 'No notes',
        emptyText: 'None yet',
        testId: 'notes',
      }}
      load={{ isPending: false, isError: false, refetch: () => undefined }}
      items={notes}
      nameOf={(note) => note.name}
      row="note"
      details={(note) => <p>{note.description}</p>}
      createOnly
      dialog={(_note, close) => (
        <ResourceFormDialog
          title="New note"
          schema={groupFormSchema}
          defaultValues={{ name: '', description: '' }}
          save={save}
          failure="Failed to create the note"
          submitLabel="Create"
          testIds={{ dialog: 'note-dialog', error: 'note-error', submit: 'note-submit' }}
          onClose={close}
          fields={(f) => [
            f.name('name', 'note-name', 'Name'),
            f.text('description', 'note-description', 'Description', { optional: true }),
          ]}
        />
      )}
      remove={{ title: (name) => `Delete ${name}?`, body: 'Gone for good.', failure: 'Failed', run: remove }}
    />
  );
}

function renderNotes(
  save: (values: unknown) => Promise<unknown> = vi.fn(() => Promise.resolve({})),
  remove = vi.fn(() => Promise.resolve({})),
) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <Notes save={save} remove={remove} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { save, remove };
}

describe('ResourceCrud and ResourceFormDialog', () => {
  it('creates through the declared fields: the schema first, then the server’s field error on its field', async () => {
    const user = userEvent.setup();
    const save = vi
      .fn<(values: unknown) => Promise<unknown>>()
      .mockRejectedValueOnce(
        new ApiError(422, 'validation_error', 'Invalid', { description: 'Not this text' }),
      )
      .mockResolvedValueOnce({});
    renderNotes(save);
    expect(within(screen.getByTestId('note-first')).getByText('One')).toBeTruthy();

    await user.click(screen.getByTestId('notes-add'));
    await user.click(screen.getByTestId('note-submit'));
    expect(await screen.findByTestId('note-name-error')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();

    await user.type(screen.getByTestId('note-name'), 'second');
    await user.type(screen.getByTestId('note-description'), 'Two');
    await user.click(screen.getByTestId('note-submit'));
    expect((await screen.findByTestId('note-description-error')).textContent).toBe('Not this text');
    expect(save).toHaveBeenCalledWith({ name: 'second', description: 'Two' }, expect.anything());

    await user.click(screen.getByTestId('note-submit'));
    await waitFor(() => expect(screen.queryByTestId('note-dialog')).toBeNull());
    expect(screen.queryByTestId('note-first-edit')).toBeNull();
  });

  it('deletes a row after asking, by its name', async () => {
    const user = userEvent.setup();
    const { remove } = renderNotes();
    await user.click(screen.getByTestId('note-first-delete'));
    expect(within(screen.getByTestId('note-delete-dialog')).getByText('Delete first?')).toBeTruthy();
    await user.click(
      within(screen.getByTestId('note-delete-dialog')).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(screen.queryByTestId('note-delete-dialog')).toBeNull());
    expect(remove).toHaveBeenCalledWith('first');
  });
});
