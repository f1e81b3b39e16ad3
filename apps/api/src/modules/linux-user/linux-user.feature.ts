// The Linux-user portal as a workspace feature (workspace-feature.ts): its sign-in and routes, and
// the callers of kind `linux-user` (http/caller.ts admits them to the portal's routes only). It
// holds no desired state of its own: a password change is the directory's change.
import { createDirectoryReader } from '../directory/directory.reader.ts';
import { createDirectoryService } from '../directory/directory.service.ts';
import { createFtpService } from '../ftp/ftp.service.ts';
import { createSambaService } from '../samba/samba.service.ts';
import { createVpnService } from '../vpn/vpn.service.ts';
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createLinuxUserTokens } from './linux-user-tokens.ts';
import { linuxUserLoginRoutes, linuxUserPortalRoutes } from './linux-user.routes.ts';
import { createLinuxUserPortal } from './linux-user.service.ts';

export const createLinuxUserFeature: WorkspaceFeatureFactory = (deps) => {
  const { db, changes, dependents, plans, nodeCalls, publicUrl } = deps;
  const portal = createLinuxUserPortal({
    ...deps,
    tokens: createLinuxUserTokens(deps.serverSecret, changes.now),
    reader: createDirectoryReader(db),
    directory: createDirectoryService({ db, changes, dependents }),
    samba: createSambaService({ db, changes, plans, directory: createDirectoryReader }),
    ftp: createFtpService({ db, changes, plans, directory: createDirectoryReader }),
    vpn: createVpnService({ db, changes, nodeCalls, publicUrl }),
  });
  return {
    feature: 'linuxPortal',
    callers: { 'linux-user': (token) => portal.authenticate(token) },
    routes: async (api) => {
      await api.register(linuxUserLoginRoutes, { prefix: '/auth/linux-user', portal });
      await api.register(linuxUserPortalRoutes, { prefix: '/api/linux-user', portal });
    },
  };
};
