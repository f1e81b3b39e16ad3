// The users' home folders as folders of the workspace's storage (`home/<name>`, where the node
// makes them), for features that name them (backups).
import type { Db } from '../../db/database.ts';
import type { StorageFolder } from '../workspace/storage-folder.ts';
import { createDirectoryQueries } from './directory.queries.ts';

export async function homeFolders(db: Db, serviceId: string): Promise<StorageFolder[]> {
  return (await createDirectoryQueries(db).listUsers(serviceId)).map((user) => ({
    kind: 'home',
    name: user.name,
    path: `home/${user.name}`,
  }));
}
