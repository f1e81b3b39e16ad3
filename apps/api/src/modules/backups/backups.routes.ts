// /api/v1/backups/{serviceId}: schedules, history, browse, restore, usage (spec §7 "Backups"; the
// list is the contract's, packages/contract/src/backups.ts). The verified owner, or a subuser of
// the service (access `backups`: it may call every one of them); changes carry the CSRF header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
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
import type { BackupsService } from './backups.service.ts';

const security = [{ bearer: [] }];
const tags = ['backups'];
// The owner, or a subuser of this service (http/caller.ts): subusers work with backups only.
const access = { access: 'backups' } as const;

export const backupsRoutes: FastifyPluginAsyncZod<{ backups: BackupsService }> = async (app, { backups }) => {
  const meta = (request: { ip: string }) => ({ ip: request.ip });

  app.get(
    '/:serviceId/schedules',
    {
      config: access,
      schema: {
        tags,
        summary: 'The backup schedules, the provider’s daily backup first, with next run and last backup',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: backupSchedulesResponseSchema },
      },
    },
    async (request) => backups.listSchedules(currentUserId(request), request.params.serviceId),
  );

  app.post(
    '/:serviceId/schedules',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a backup schedule (presets: daily 2:00, weekly Sunday 2:00, monthly the 1st 2:00)',
        security,
        params: workspaceServiceParamsSchema,
        body: createBackupScheduleRequestSchema,
        response: { 201: backupScheduleSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await backups.createSchedule(
            currentUserId(request),
            request.params.serviceId,
            request.body,
            meta(request),
          ),
        ),
  );

  app.put(
    '/:serviceId/schedules/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Change a schedule: the fields sent change, the rest stay; `state` pauses and resumes',
        security,
        params: backupScheduleParamsSchema,
        body: updateBackupScheduleRequestSchema,
        response: { 200: backupScheduleSchema },
      },
    },
    async (request) =>
      backups.updateSchedule(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        request.body,
        meta(request),
      ),
  );

  app.delete(
    '/:serviceId/schedules/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a schedule (its history stays)',
        security,
        params: backupScheduleParamsSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await backups.deleteSchedule(
        currentUserId(request),
        request.params.serviceId,
        request.params.id,
        meta(request),
      );
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/:serviceId/schedules/:id/trigger',
    {
      config: access,
      schema: {
        tags,
        summary: 'Run a schedule now: its waiting run if it has one, else a new one',
        security,
        params: backupScheduleParamsSchema,
        response: { 202: backupSessionSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await backups.trigger(
            currentUserId(request),
            request.params.serviceId,
            request.params.id,
            meta(request),
          ),
        ),
  );

  app.get(
    '/:serviceId/sessions',
    {
      config: access,
      schema: {
        tags,
        summary: 'Backup history, newest first',
        security,
        params: workspaceServiceParamsSchema,
        querystring: backupSessionsQuerySchema,
        response: { 200: backupSessionsResponseSchema },
      },
    },
    async (request) => backups.listSessions(currentUserId(request), request.params.serviceId, request.query),
  );

  app.get(
    '/:serviceId/sessions/:id/browse',
    {
      config: access,
      schema: {
        tags,
        summary: 'One folder of a completed backup’s snapshot (`path` from its root, `/` by default)',
        security,
        params: backupSessionParamsSchema,
        querystring: backupBrowseQuerySchema,
        response: { 200: backupBrowseResponseSchema },
      },
    },
    async (request) =>
      backups.browse(currentUserId(request), request.params.serviceId, request.params.id, request.query.path),
  );

  app.get(
    '/:serviceId/sessions/:id/download',
    {
      config: access,
      schema: {
        tags,
        summary: 'One file of a completed backup’s snapshot, as an attachment (`path` from its root)',
        security,
        params: backupSessionParamsSchema,
        querystring: backupDownloadQuerySchema,
        response: { 200: nodeFileResponseSchema },
      },
    },
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

  app.post(
    '/:serviceId/sessions/:id/restore',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Put a file or folder of a backup back in its place (`original`) or into a new folder beside it (`folder`)',
        security,
        params: backupSessionParamsSchema,
        body: backupRestoreRequestSchema,
        response: { 202: backupRestoreSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(202)
        .send(
          await backups.restore(
            currentUserId(request),
            request.params.serviceId,
            request.params.id,
            request.body,
            meta(request),
          ),
        ),
  );

  app.get(
    '/:serviceId/restores',
    {
      config: access,
      schema: {
        tags,
        summary: 'Restores asked for, newest first',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: backupRestoresResponseSchema },
      },
    },
    async (request) => backups.listRestores(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/usage',
    {
      config: access,
      schema: {
        tags,
        summary: 'The backup repository: size on the node, stored bytes, snapshots, last success',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: backupUsageSchema },
      },
    },
    async (request) => backups.usage(currentUserId(request), request.params.serviceId),
  );

  app.get(
    '/:serviceId/sources',
    {
      config: access,
      schema: {
        tags,
        summary: 'The shares, home folders and NFS exports a schedule may back up',
        security,
        params: workspaceServiceParamsSchema,
        response: { 200: backupSourcesResponseSchema },
      },
    },
    async (request) => backups.sources(currentUserId(request), request.params.serviceId),
  );
};
