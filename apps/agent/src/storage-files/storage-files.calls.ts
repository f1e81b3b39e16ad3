// The node calls about the files of a workspace's storage (contract share-links-node.ts): the
// owner's picker (`storage.browse`) and public share links (`share.describe`, `share.download`).
// They belong to no driver (nothing is applied for them), so they answer beside the drivers
// (agent.ts hands them to runNodeCall). Each reads `layout.dataRoot` through storage-reader.ts,
// serving only files of the workspace's own users where a file has several names.
import type { NodeCallContext, NodeCallHandlers, NodeCallResponder } from '../calls/node-call.ts';
import { shareDownload } from './share-download.ts';
import { browseStorage, describeShared, sharedNames, type StorageAccess } from './storage-listing.ts';
import { openStoragePath, workspaceOwners } from './storage-reader.ts';

const accessOf = ({ layout, desired }: NodeCallContext): StorageAccess => ({
  dataRoot: layout.dataRoot,
  owners: workspaceOwners(desired.id_base),
});

const calls: NodeCallHandlers = {
  'storage.browse': (payload, context) => browseStorage(accessOf(context), payload.path),
  'share.describe': (payload, context) => describeShared(accessOf(context), payload),
  'share.download': async (payload, context) => {
    const { dataRoot, owners } = accessOf(context);
    const opened = await openStoragePath(dataRoot, owners, sharedNames(payload.root, payload.path));
    return shareDownload(opened, payload);
  },
};

export const storageFilesCalls: NodeCallResponder = { name: 'storage-files', calls };
