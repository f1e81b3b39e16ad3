// Who answers the API's node calls: the drivers (each through its `calls`) and the storage's
// files (share links), which no driver owns. responders.test.ts checks that every kind of the
// contract has exactly one answer here.
import type { Driver } from '../drivers/driver.ts';
import { storageFilesCalls } from '../storage-files/storage-files.calls.ts';
import type { NodeCallResponder } from './node-call.ts';

export function nodeCallResponders(drivers: readonly Driver[]): readonly NodeCallResponder[] {
  return [...drivers, storageFilesCalls];
}
