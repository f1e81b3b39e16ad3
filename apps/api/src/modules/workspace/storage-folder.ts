// A folder of a workspace's storage that a feature holds (a Samba share, a user's home, an NFS
// export), by the name the owner knows it by and its path from the storage's root. Features that
// act on folders (backups; share links next) offer these, never a free path.
import type { BackupPathKind } from '@debesis/contract';

export interface StorageFolder {
  kind: BackupPathKind;
  name: string;
  /** From the storage's root, no leading `/` (`shares/projects`, `home/alice`). */
  path: string;
}
