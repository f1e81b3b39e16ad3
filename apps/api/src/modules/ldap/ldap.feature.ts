// LDAP as a workspace feature (workspace-feature.ts): the `ldap` section of the desired state
// (absent until the owner's first LDAP change: no slapd), the `ldap_user` failures of the agent's
// LDAP driver, what the node reports of its directory (`features.ldap`), and the /ldap routes.
import { createDirectoryReader } from '../directory/directory.reader.ts';
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { ldapRoutes } from './ldap.routes.ts';
import { createLdapService, LDAP_FAILURE_KINDS } from './ldap.service.ts';

export const createLdapFeature: WorkspaceFeatureFactory = ({ db, changes, plans }) => {
  const ldap = createLdapService({ db, changes, plans, directory: createDirectoryReader });
  return {
    feature: 'ldap',
    failureKinds: LDAP_FAILURE_KINDS,
    desiredSection: ({ serviceId }) => ldap.desiredSection(serviceId),
    reports: { ldap: (tx, report, section) => ldap.report(tx, report, section) },
    routes: async (api) => {
      await api.register(ldapRoutes, { prefix: '/ldap/services', ldap });
    },
  };
};
