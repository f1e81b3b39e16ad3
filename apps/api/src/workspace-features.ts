// The workspace features this API has, in the order their sections and routes are assembled.
// A new feature adds its factory here (docs/adding-a-feature.md). The list lives at the
// composition root, beside app.ts, so the workspace module that runs features never imports them:
// the features depend on it, not the other way round.
import { createBackupsFeature } from './modules/backups/backups.feature.ts';
import { createLdapFeature } from './modules/ldap/ldap.feature.ts';
import { createLinuxUserFeature } from './modules/linux-user/linux-user.feature.ts';
import { createDirectoryFeature } from './modules/directory/directory.feature.ts';
import { createMonitoringFeature } from './modules/monitoring/monitoring.feature.ts';
import { createNetworkFeature } from './modules/network/network.feature.ts';
import { createNfsFeature } from './modules/nfs/nfs.feature.ts';
import { createFtpFeature } from './modules/ftp/ftp.feature.ts';
import { createSambaFeature } from './modules/samba/samba.feature.ts';
import { createShareLinksFeature } from './modules/share-links/share-links.feature.ts';
import { createSnapshotsFeature } from './modules/snapshots/snapshots.feature.ts';
import { createSubusersFeature } from './modules/subusers/subusers.feature.ts';
import { createVpnFeature } from './modules/vpn/vpn.feature.ts';
import type { WorkspaceFeatureFactory } from './modules/workspace/workspace-feature.ts';

export const WORKSPACE_FEATURES: readonly WorkspaceFeatureFactory[] = [
  createDirectoryFeature,
  createSambaFeature,
  createVpnFeature,
  createNfsFeature,
  createFtpFeature,
  createLdapFeature,
  createBackupsFeature,
  createSnapshotsFeature,
  createShareLinksFeature,
  createSubusersFeature,
  createLinuxUserFeature,
  createMonitoringFeature,
  createNetworkFeature,
];
