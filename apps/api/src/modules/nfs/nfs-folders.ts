// The NFS exports as folders of the workspace's storage, for features that name them (backups).
import type { Db } from '../../db/database.ts';
import type { StorageFolder } from '../workspace/storage-folder.ts';
import { createNfsQueries } from './nfs.queries.ts';

export async function nfsFolders(db: Db, serviceId: string): Promise<StorageFolder[]> {
  return (await createNfsQueries(db).listExports(serviceId)).map((entry) => ({
    kind: 'export',
    name: entry.path,
    path: entry.path,
  }));
}
