// Subusers as a workspace feature (workspace-feature.ts): the owner's routes and the subuser's
// sign-in under /subusers, and the callers of kind `subuser` (http/caller.ts admits them to the
// backups of their own service). A subuser holds no desired state: the node never hears of it.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createSecondFactor } from './second-factor.ts';
import { createSubuserSignIn } from './subuser-sign-in.ts';
import { subusersRoutes } from './subusers.routes.ts';
import { createSubusersService } from './subusers.service.ts';

export const createSubusersFeature: WorkspaceFeatureFactory = (deps) => {
  const secondFactor = createSecondFactor(deps.serverSecret);
  const subusers = createSubusersService({ ...deps, secondFactor });
  const signIn = createSubuserSignIn({ ...deps, secondFactor });
  return {
    feature: 'subusers',
    callers: { subuser: (token) => signIn.authenticate(token) },
    routes: async (api) => {
      await api.register(subusersRoutes, { prefix: '/subusers', subusers, signIn });
    },
  };
};
