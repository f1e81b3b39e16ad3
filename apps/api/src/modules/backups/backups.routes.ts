// /api/v1/backups/{serviceId}: schedules, history, browse, restore, usage (spec §7 "Backups"; the
// list is the contract's, packages/contract/src/features/backups/backups.ts). The verified owner, or a subuser of
// the service (access `backups`: it may call every one of them); changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  backupBrowseQuerySchema,
  backupBrowseResponseSchema,
  backupDownloadQuerySchema,
  backupRestoreRequestSchema,
  backupRestoreSchema,
  backupRestoresResponseSchema,
  backupScheduleParamsSchema,
  backupScheduleSchema,
  backupSchedulesResponseSchema,
  backupSessionParamsSchema,
  backupSessionSchema,
  backupSessionsQuerySchema,
  backupSessionsResponseSchema,
  backupSourcesResponseSchema,
  backupUsageSchema,
  createBackupScheduleRequestSchema,
  updateBackupScheduleRequestSchema,
  workspaceServiceParamsSchema,
} from '@debesis/contract';
import { nodeFileResponseSchema, sendNodeFile } from '../../http/node-file-reply.ts';
import { currentUserId } from '../../http/caller.ts';
import { ownerRouter, ownerRoutes } from '../../http/owner-route.ts';
import { resourceRoutes } from '../../http/resource-routes.ts';
import type { BackupsService } from './backups.service.ts';

const tags = ['backups'];
// The owner, or a subuser of this service (http/caller.ts): subusers work with backups only.
const access = 'backups';
const route = ownerRoutes(tags, access);

export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService }> = async (app, { backups }) => {
  const owner = ownerRouter(app, tags, access);

  resourceRoutes(owner, backups, {
    path: '/:serviceId/schedules',
    id: 'id',
    params: backupScheduleParamsSchema,
    item: backupScheduleSchema,
    routes: {
      list: {
        summary: 'The backup schedules, the provider’s daily backup first, with next run and last backup',
        response: backupSchedulesResponseSchema,
        call: 'listSchedules',
      },
      create: {
        summary: 'Create a backup schedule (presets: daily 2:00, weekly Sunday 2:00, monthly the 1st 2:00)',
        body: createBackupScheduleRequestSchema,
        call: 'createSchedule',
      },
      update: {
        method: 'put',
        summary: 'Change a schedule: the fields sent change, the rest stay; `state` pauses and resumes',
        body: updateBackupScheduleRequestSchema,
        call: 'updateSchedule',
      },
      delete: { summary: 'Delete a schedule (its history stays)', call: 'deleteSchedule' },
    },
  });

  owner.post(
    '/:serviceId/schedules/:id/trigger',
    {
      summary: 'Run a schedule now: its waiting run if it has one, else a new one',
      params: backupScheduleParamsSchema,
      response: { 202: backupSessionSchema },
    },
    async (request, { accountId, meta }) =>
      backups.trigger(accountId, request.params.serviceId, request.params.id, meta),
  );

  owner.get(
    '/:serviceId/sessions',
    {
      summary: 'Backup history, newest first',
      params: workspaceServiceParamsSchema,
      querystring: backupSessionsQuerySchema,
      response: { 200: backupSessionsResponseSchema },
    },
    async (request, { accountId }) =>
      backups.listSessions(accountId, request.params.serviceId, request.query),
  );

  owner.get(
    '/:serviceId/sessions/:id/browse',
    {
      summary: 'One folder of a completed backup’s snapshot (`path` from its root, `/` by default)',
      params: backupSessionParamsSchema,
      querystring: backupBrowseQuerySchema,
      response: { 200: backupBrowseResponseSchema },
    },
    async (request, { accountId }) =>
      backups.browse(accountId, request.params.serviceId, request.params.id, request.query.path),
  );

  app.get(
    '/:serviceId/sessions/:id/download',
    route({
      summary: 'One file of a completed backup’s snapshot, as an attachment (`path` from its root)',
      params: backupSessionParamsSchema,
      querystring: backupDownloadQuerySchema,
      response: { 200: nodeFileResponseSchema },
    }),
    async (request, reply) => {
      const file = await backups.download(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        request.query.path,
      );
      return sendNodeFile(reply, file, request.query.path);
    },
  );

  owner.post(
    '/:serviceId/sessions/:id/restore',
    {
      summary:
        'Put a file or folder of a backup back in its place (`original`) or into a new folder beside it (`folder`)',
      params: backupSessionParamsSchema,
      body: backupRestoreRequestSchema,
      response: { 202: backupRestoreSchema },
    },
    async (request, { accountId, meta }) =>
      backups.restore(accountId, request.params.serviceId, request.params.id, request.body, meta),
  );

  owner.get(
    '/:serviceId/restores',
    {
      summary: 'Restores asked for, newest first',
      params: workspaceServiceParamsSchema,
      response: { 200: backupRestoresResponseSchema },
    },
    async (request, { accountId }) => backups.listRestores(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/usage',
    {
      summary: 'The backup repository: size on the node, stored bytes, snapshots, last success',
      params: workspaceServiceParamsSchema,
      response: { 200: backupUsageSchema },
    },
    async (request, { accountId }) => backups.usage(accountId, request.params.serviceId),
  );

  owner.get(
    '/:serviceId/sources',
    {
      summary: 'The shares, home folders and NFS exports a schedule may back up',
      params: workspaceServiceParamsSchema,
      response: { 200: backupSourcesResponseSchema },
    },
    async (request, { accountId }) => backups.sources(accountId, request.params.serviceId),
  );
};
