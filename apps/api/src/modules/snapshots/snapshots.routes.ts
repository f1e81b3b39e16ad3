// /api/v1/snapshots/{serviceId}: the workspace's snapshots, and one taken now (issue 37; the
// contract's packages/contract/src/features/snapshots/snapshots.ts). The verified owner, or a subuser of the service
// (access `backups`: snapshots are part of its backups); the take carries the CSRF header.
// /{name}/browse and /{name}/download read one snapshot in the backup browser, as a backup's are.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  backupBrowseQuerySchema,
  backupBrowseResponseSchema,
  backupDownloadQuerySchema,
  snapshotParamsSchema,
  snapshotsListResponseSchema,
  snapshotTakeResponseSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import { nodeFileResponseSchema, sendNodeFile } from '../../http/node-file-reply.ts';
import type { SnapshotsService } from './snapshots.service.ts';

const security = [{ bearer: [] }];
const tags = ['snapshots'];
const access = { access: 'backups' } as const;

export const snapshotsRoutes: FastifyPluginAsyncZod<{ snapshots: SnapshotsService }> = async (
  app,
  { snapshots },
) => {
  app.get(
    '/:serviceId',
    {
      config: access,
      schema: {
        tags,
        summary: 'The workspace’s snapshots (Windows Previous Versions), newest first',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: snapshotsListResponseSchema },
      },
    },
    async (request) => snapshots.list(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId',
    {
      config: access,
      schema: {
        tags,
        summary: 'Take a snapshot of the workspace now (at most one a minute)',
        security,
        params: workspaceServiceParamsSchema,
        response: { 202: snapshotTakeResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(await snapshots.take(currentUserId(request), request.params.serviceId, { ip: request.ip })),
  );

  app.get(
    '/:serviceId/:name/browse',
    {
      config: access,
      schema: {
        tags,
        summary: 'One folder of a snapshot (`path` from the storage’s root, `/` by default)',
        security,
        params: snapshotParamsSchema,
        querystring: backupBrowseQuerySchema,
        response: { 200: backupBrowseResponseSchema },
      },
    },
    async (request) =>
      snapshots.browse(
        currentUserId(request),
        request.params.serviceId,
        request.params.name,
        request.query.path,
      ),
  );

  app.get(
    '/:serviceId/:name/download',
    {
      config: access,
      schema: {
        tags,
        summary: 'One file of a snapshot, as an attachment (`path` from the storage’s root)',
        security,
        params: snapshotParamsSchema,
        querystring: backupDownloadQuerySchema,
        response: { 200: nodeFileResponseSchema },
      },
    },
    async (request, reply) => {
      const { serviceId, name } = request.params;
      const file = await snapshots.download(currentUserId(request), serviceId, name, request.query.path);
      return sendNodeFile(reply, file, request.query.path);
    },
  );
};
