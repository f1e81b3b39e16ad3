// A subuser's session in this browser: its `sus_` token under its own storage key, never the
// owner's, so an owner signed in here stays signed in and neither token is sent for the other.
import { STORAGE_KEYS } from '@debesis/contract';
import { readStorage, removeStorage, writeStorage } from '../lib/storage.ts';

export const getSubuserToken = (): string | null => readStorage(STORAGE_KEYS.subuserToken);
export const storeSubuserToken = (token: string): void => writeStorage(STORAGE_KEYS.subuserToken, token);
export const clearSubuserToken = (): void => removeStorage(STORAGE_KEYS.subuserToken);
