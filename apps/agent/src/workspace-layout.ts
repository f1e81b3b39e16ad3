// Where each part of a workspace lives inside its folder. One place, so drivers agree on paths
// and the smb.conf, the namespace and the tests name the same files.
//
//   <ws>/storage.img        sparse ext4 image (the hard size limit); absent in plain-folder mode
//   <ws>/data/              the storage root: the image is mounted here (homes, shares)
//   <ws>/data/home/<user>   each user's home folder
//   <ws>/accounts/          passwd, group, shadow of the workspace (seen as /etc/… by its daemons)
//   <ws>/network.json       the network namespace, veth and address made (drivers/network.driver.ts)
//   <ws>/address            before network namespaces: the alias on lo (dropped once, then gone)
//   <ws>/ns/host-etc        empty; inside the namespace the host's /etc is bound here
//   <ws>/samba/             smb.conf, smbpasswd (what the passdb holds), private/ lock/ state/
//                           cache/ run/ log/
import { join } from 'node:path';

export interface WorkspaceLayout {
  root: string;
  image: string;
  dataRoot: string;
  homesRoot: string;
  accountsDir: string;
  passwd: string;
  group: string;
  shadow: string;
  addressFile: string;
  networkFile: string;
  hostEtc: string;
  samba: SambaLayout;
}

export interface SambaLayout {
  dir: string;
  conf: string;
  /** The smbpasswd-format record of what was imported into the passdb last. */
  passdbRecord: string;
  privateDir: string;
  passdb: string;
  lockDir: string;
  stateDir: string;
  cacheDir: string;
  runDir: string;
  logDir: string;
  logFile: string;
  /** Written by the supervisor (daemons/supervisor.ts): smbd's pid, start time, command line. */
  processFile: string;
  /** smbd's stdout and stderr (start-up errors land here before its log file is open). */
  outputFile: string;
}

export function workspaceLayout(workspaceDir: string): WorkspaceLayout {
  const accountsDir = join(workspaceDir, 'accounts');
  const dataRoot = join(workspaceDir, 'data');
  const sambaDir = join(workspaceDir, 'samba');
  const privateDir = join(sambaDir, 'private');
  const runDir = join(sambaDir, 'run');
  const logDir = join(sambaDir, 'log');
  return {
    root: workspaceDir,
    image: join(workspaceDir, 'storage.img'),
    dataRoot,
    homesRoot: join(dataRoot, 'home'),
    accountsDir,
    passwd: join(accountsDir, 'passwd'),
    group: join(accountsDir, 'group'),
    shadow: join(accountsDir, 'shadow'),
    addressFile: join(workspaceDir, 'address'),
    networkFile: join(workspaceDir, 'network.json'),
    hostEtc: join(workspaceDir, 'ns', 'host-etc'),
    samba: {
      dir: sambaDir,
      conf: join(sambaDir, 'smb.conf'),
      passdbRecord: join(sambaDir, 'smbpasswd'),
      privateDir,
      passdb: join(privateDir, 'passdb.tdb'),
      lockDir: join(sambaDir, 'lock'),
      stateDir: join(sambaDir, 'state'),
      cacheDir: join(sambaDir, 'cache'),
      runDir,
      logDir,
      logFile: join(logDir, 'smbd.log'),
      processFile: join(runDir, 'smbd.agent.json'),
      outputFile: join(logDir, 'smbd.out'),
    },
  };
}
