// The create and edit form of an NFS export (spec §3 "NFS export"): the folder (on creation only:
// clients mount it by it), the client rule (an IP address, a network such as /24, or a hostname),
// read-write or read-only, a description, and the service user files are written as. The rules
// are the contract's, so the form refuses what the server would, in the same words.
import {
  createNfsExportRequestSchema,
  nfsAccessSchema,
  nfsClientRuleSchema,
  nfsExportPathSchema,
  workspaceDescriptionSchema,
  type NfsExport,
  type WorkspaceUser,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { nfsApi } from '../../../workspace/nfs-api.ts';
import { startValues, VERBATIM } from '../kit/form-fields.tsx';
import type { ResourceForm } from '../kit/ResourceCrud.tsx';

const fieldsSchema = z.object({
  path: nfsExportPathSchema,
  client: nfsClientRuleSchema,
  access: nfsAccessSchema,
  description: workspaceDescriptionSchema,
  /** '' : no owner (files belong to the workspace itself). */
  owner: z.string(),
});
export const nfsExportFormSchema = fieldsSchema;
/** An export being changed keeps its folder. */
export const nfsExportEditFormSchema = fieldsSchema.extend({ path: z.string() });
type Schema = typeof nfsExportFormSchema | typeof nfsExportEditFormSchema;

// A new export starts from the contract's defaults, so the form offers what the API would do.
const NEW_EXPORT = createNfsExportRequestSchema.pick({ access: true, description: true }).parse({});

export function nfsExportForm(
  serviceId: string,
  users: readonly WorkspaceUser[],
  t: TFunction<['nfsTab', 'workspace']>,
): ResourceForm<NfsExport, Schema> {
  return {
    schema: (item) => (item ? nfsExportEditFormSchema : nfsExportFormSchema),
    values: (item) => ({
      ...startValues({ path: '', client: '', ...NEW_EXPORT }, item),
      owner: item?.owner ?? '',
    }),
    save: ({ path, owner, ...values }, item) =>
      item
        ? nfsApi.updateExport(serviceId, item.path, { ...values, owner: owner || null })
        : nfsApi.createExport(serviceId, { path, ...values, owner: owner || null }),
    texts: {
      createTitle: t('nfs.createTitle'),
      editTitle: (name) => t('nfs.editTitle', { name }),
      create: t('nfs.create'),
      createFailed: t('nfs.createFailed'),
      updateFailed: t('nfs.updateFailed'),
    },
    fields: (f, item) => [
      !item &&
        f.text('path', 'nfs-export-path', t('nfs.path'), {
          hint: t('nfs.pathHint'),
          input: { ...VERBATIM, required: true, maxLength: 64 },
        }),
      f.text('client', 'nfs-export-client', t('nfs.client'), {
        hint: t('nfs.clientHint'),
        input: { ...VERBATIM, required: true, maxLength: 253 },
      }),
      f.select(
        'access',
        'nfs-export-access',
        t('nfs.access'),
        nfsAccessSchema.options.map((value) => ({ value, label: t(`nfs.access_${value}`) })),
        { hint: t('nfs.accessHint') },
      ),
      f.select(
        'owner',
        'nfs-export-owner',
        t('nfs.owner'),
        [
          { value: '', label: t('nfs.ownerNone') },
          // Deactivated users cannot own an export (the API refuses them), unless one already does.
          ...users
            .filter((user) => user.active || user.name === item?.owner)
            .map((user) => ({ value: user.name, label: user.name })),
        ],
        { hint: t('nfs.ownerHint') },
      ),
      f.text('description', 'nfs-export-description', t('nfs.description'), { optional: true }),
    ],
  };
}
