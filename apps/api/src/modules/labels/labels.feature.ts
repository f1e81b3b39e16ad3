// Labels as a workspace feature (workspace-feature.ts): the owner's routes under
// /services/{serviceId}/labels. Labels hold no desired state: the node never hears of them.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { labelsRoutes } from './labels.routes.ts';
import { createLabelsService } from './labels.service.ts';

export const createLabelsFeature: WorkspaceFeatureFactory = ({ db, changes, recordActivity }) => {
  const labels = createLabelsService({ db, changes, recordActivity });
  return {
    feature: 'labels',
    routes: async (api) => {
      await api.register(labelsRoutes, { prefix: '/services', labels });
    },
  };
};
