// Labels of a workspace: key=value pairs its owner puts on it to group and find workspaces
// (env=prod, team=finance), as Hetzner Cloud has them. They stay in the API: the node never hears
// of them. Base /api/v1/services/{serviceId}:
//   GET labels                 every label, sorted by key
//   PUT labels/{key}           `{ value }`: sets the label (made, or its value replaced); a label
//                              beyond LABEL_LIMIT is `label_limit` (409)
//   DELETE labels/{key}        204; `label_not_found` (404) when there is none
import { z } from 'zod';
import { text } from '../../strings.ts';
import { workspaceServiceParamsSchema } from '../users/directory.ts';

/** Labels a workspace may carry. */
export const LABEL_LIMIT = 20;

/**
 * A key: 1-63 lower-case letters, digits, `.`, `_` and `-`, starting and ending with a letter or
 * digit (a later command line filters by `key=value`, so neither `=` nor `,` nor a space).
 */
export const LABEL_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9._-]{0,61}[a-z0-9])?$/;
/** A value: empty, or 1-63 letters of any case, digits, `.`, `_` and `-`, starting and ending with a letter or digit. */
export const LABEL_VALUE_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$/;

export const labelKeySchema = text()
  .regex(LABEL_KEY_PATTERN, 'label_key_invalid')
  .meta({ examples: ['env'] });
export const labelValueSchema = text().regex(LABEL_VALUE_PATTERN, 'label_value_invalid');

export const labelParamsSchema = workspaceServiceParamsSchema.extend({ key: labelKeySchema });

export const setLabelRequestSchema = z
  .object({ value: labelValueSchema })
  .meta({ examples: [{ value: 'prod' }] });
export type SetLabelRequest = z.input<typeof setLabelRequestSchema>;

export const labelSchema = z.object({
  key: text(),
  value: text(),
  /** When its value was last set (ISO). */
  updated_at: text(),
});
export type Label = z.infer<typeof labelSchema>;

export const labelsResponseSchema = z.object({
  /** Sorted by key. */
  labels: z.array(labelSchema),
});
export type LabelsResponse = z.infer<typeof labelsResponseSchema>;
