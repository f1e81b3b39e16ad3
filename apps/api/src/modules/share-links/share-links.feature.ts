// Share links as a workspace feature (workspace-feature.ts): the owner's routes under /shares and
// the visitors' under /public/shares. A link holds no desired state (the node is asked for bytes
// only when a visitor comes), so the feature gives no section and no report store.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createShareLinkKeys } from './share-link-tokens.ts';
import { createShareLinkVisits } from './share-link-visits.ts';
import { publicShareRoutes } from './share-links.public.routes.ts';
import { shareLinksRoutes } from './share-links.routes.ts';
import { createShareLinksService } from './share-links.service.ts';

export const createShareLinksFeature: WorkspaceFeatureFactory = (deps) => {
  const keys = createShareLinkKeys(deps.serverSecret);
  const links = createShareLinksService({ ...deps, keys });
  const visits = createShareLinkVisits({ ...deps, keys, now: deps.changes.now });
  return {
    feature: 'shareLinks',
    routes: async (api) => {
      await api.register(shareLinksRoutes, { prefix: '/shares', links });
      await api.register(publicShareRoutes, {
        prefix: '/public/shares',
        visits,
        secureCookies: deps.secureCookies,
      });
    },
  };
};
