// Where each part of a workspace lives inside its folder: the typed aggregate of the base parts
// (below) and of each feature's own layout, which its folder defines. One value, so drivers
// agree on paths and the smb.conf, the namespace and the tests name the same files.
//
//   <ws>/storage.img        sparse image (the hard size limit): btrfs, or ext4 for a workspace made
//                           before btrfs or smaller than btrfs allows; absent in plain-folder mode
//   <ws>/data/              the storage root: the image (btrfs: its `data` subvolume) is mounted
//                           here (homes, shares)
//   <ws>/pool/              btrfs only: the image's top level (subvolumes `data` and `snapshots`),
//                           the agent's alone (no daemon's namespace holds it): snapshots are
//                           made and deleted here
//   <ws>/snapshots/         btrfs only: the `snapshots` subvolume mounted read-only, one read-only
//                           subvolume per snapshot named @GMT-YYYY.MM.DD-HH.MM.SS (UTC): Samba's
//                           Previous Versions (shadow_copy2) read it inside smbd's namespace
//   <ws>/snapshots.json     btrfs only: which snapshots were taken on demand (the rest are scheduled)
//   <ws>/replica.json       a standby: its last pull (replica, when, bytes) for its report
//                           (replicas/); the replicas themselves are the `replicas` subvolume
//   <ws>/data/home/<user>   each user's home folder
//   <ws>/accounts/          passwd, group, shadow of the workspace (seen as /etc/… by its daemons)
//   <ws>/network.json       the network namespace, veth and address made (drivers/network.driver.ts)
//   <ws>/address            before network namespaces: the alias on lo (dropped once, then gone)
//   <ws>/ns/host-etc        empty; inside the namespace the host's /etc is bound here
//   <ws>/samba/ <ws>/vpn/ <ws>/vpn-pki/ <ws>/nfs/ <ws>/ldap/   each feature's own: its layout
//                           beside its code (samba/samba-layout.ts, vpn/, nfs/, ldap/), gathered here
//
// Sockets and lock files are not in the workspace's folder but in its short runtime folder
// (workspace-paths.ts workspaceRuntimeDir, `/run/debesis/<short id>/`), so that no UNIX socket's
// path passes 107 bytes whatever the length of the agent's data folder; each feature's part of it
// is in its layout.
import { basename, join } from 'node:path';
import { workspaceRuntimeDir } from './workspace-paths.ts';
import { ldapLayout, type LdapLayout } from './ldap/ldap-layout.ts';
import { nfsLayout, type NfsLayout } from './nfs/nfs-layout.ts';
import { sambaLayout, type SambaLayout } from './samba/samba-layout.ts';
import { vpnLayout, type VpnLayout } from './vpn/vpn-layout.ts';

export interface WorkspaceLayout {
  root: string;
  image: string;
  dataRoot: string;
  /** btrfs: the image's top level, mounted for the agent only. */
  pool: string;
  /** btrfs: the `snapshots` subvolume, mounted read-only (what smbd sees). */
  snapshotsDir: string;
  /** btrfs: the names of the snapshots taken on demand. */
  snapshotKinds: string;
  /** A standby: what its last pull received (replicas/replica-pull.ts). */
  replicaStatus: string;
  homesRoot: string;
  accountsDir: string;
  passwd: string;
  group: string;
  shadow: string;
  addressFile: string;
  networkFile: string;
  /** The running total of its network link's traffic (net/traffic-counter.ts). */
  trafficFile: string;
  hostEtc: string;
  /** The workspace's short runtime folder: its daemons' sockets and lock files. */
  runtimeDir: string;
  samba: SambaLayout;
  vpn: VpnLayout;
  nfs: NfsLayout;
  ldap: LdapLayout;
}

export function workspaceLayout(workspaceDir: string): WorkspaceLayout {
  const accountsDir = join(workspaceDir, 'accounts');
  const dataRoot = join(workspaceDir, 'data');
  const runtimeDir = workspaceRuntimeDir(basename(workspaceDir));
  return {
    root: workspaceDir,
    image: join(workspaceDir, 'storage.img'),
    dataRoot,
    pool: join(workspaceDir, 'pool'),
    snapshotsDir: join(workspaceDir, 'snapshots'),
    snapshotKinds: join(workspaceDir, 'snapshots.json'),
    replicaStatus: join(workspaceDir, 'replica.json'),
    homesRoot: join(dataRoot, 'home'),
    accountsDir,
    passwd: join(accountsDir, 'passwd'),
    group: join(accountsDir, 'group'),
    shadow: join(accountsDir, 'shadow'),
    addressFile: join(workspaceDir, 'address'),
    networkFile: join(workspaceDir, 'network.json'),
    trafficFile: join(workspaceDir, 'traffic.json'),
    hostEtc: join(workspaceDir, 'ns', 'host-etc'),
    runtimeDir,
    samba: sambaLayout(workspaceDir, runtimeDir),
    vpn: vpnLayout(workspaceDir, runtimeDir),
    nfs: nfsLayout(workspaceDir, runtimeDir),
    ldap: ldapLayout(workspaceDir, runtimeDir),
  };
}
