// The Samba shares as folders of the workspace's storage, for features that name them (backups).
import type { Db } from '../../db/database.ts';
import type { StorageFolder } from '../workspace/storage-folder.ts';
import { createSambaQueries } from './samba.queries.ts';

export async function sambaFolders(db: Db, serviceId: string): Promise<StorageFolder[]> {
  return (await createSambaQueries(db).listShares(serviceId)).map((share) => ({
    kind: 'share',
    name: share.name,
    path: share.path,
  }));
}
