// How the service tab tests use a tab as a person would: a button is pressed once it is enabled
// (a tab keeps its buttons disabled until it has loaded what they act on), and a field is typed
// into anew, its earlier value cleared.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';

/** Clicks the button `testId` once it is enabled, and hands it back for the next click. */
export async function pressWhenReady(testId: string): Promise<HTMLButtonElement> {
  const button = await screen.findByTestId<HTMLButtonElement>(testId);
  await waitFor(() => expect(button.disabled).toBe(false));
  await userEvent.click(button);
  return button;
}

/** Clicks the button `testId` once it is enabled, and resolves with the dialog `dialogId` it opens. */
export async function openDialog(testId: string, dialogId: string): Promise<HTMLElement> {
  await pressWhenReady(testId);
  return screen.findByTestId(dialogId);
}

/** Replaces what the field `testId` of `dialog` holds with `text`. */
export async function retype(dialog: HTMLElement, testId: string, text: string): Promise<void> {
  await userEvent.clear(within(dialog).getByTestId(testId));
  await userEvent.type(within(dialog).getByTestId(testId), text);
}
