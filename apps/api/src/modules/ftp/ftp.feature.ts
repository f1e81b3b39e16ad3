// FTP and SFTP as one workspace feature (workspace-feature.ts): the `ftp` and `sftp` sections of
// the desired state (one users list serves both), what a user's access holds of the directory,
// the `ftp_user` failures of the agent's FTP driver, the FTP and SFTP sessions of the node's
// reports (`features.ftp`, `features.sftp`) and the /ftp routes.
import { createDirectoryReader } from '../directory/directory.reader.ts';
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { ftpRoutes } from './ftp.routes.ts';
import { createFtpService, FTP_FAILURE_KINDS, ftpDirectoryDependent, ftpReportStore } from './ftp.service.ts';

export const createFtpFeature: WorkspaceFeatureFactory = ({ db, changes, plans }) => {
  const ftp = createFtpService({ db, changes, plans, directory: createDirectoryReader });
  return {
    feature: 'ftp',
    failureKinds: FTP_FAILURE_KINDS,
    desiredSection: ({ serviceId }) => ftp.desiredSection(serviceId),
    directoryDependent: ftpDirectoryDependent,
    reports: {
      ftp: ftpReportStore('ftp', createDirectoryReader),
      sftp: ftpReportStore('sftp', createDirectoryReader),
    },
    routes: async (api) => {
      await api.register(ftpRoutes, { prefix: '/ftp', ftp });
    },
  };
};
