// The add and edit form of a label: its key (on adding only: the key is the label, so another key
// is another label) and its value. The rules are the contract's, so the form refuses what the
// server would, in the same words.
import { labelKeySchema, labelValueSchema, type Label } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { VERBATIM } from '../kit/form-fields.tsx';
import type { ResourceForm } from '../kit/ResourceCrud.tsx';
import { labelsApi } from './labels-api.ts';

export const labelFormSchema = z.object({ key: labelKeySchema, value: labelValueSchema });
/** A label being changed keeps its key. */
export const labelEditFormSchema = labelFormSchema.extend({ key: z.string() });
type Schema = typeof labelFormSchema | typeof labelEditFormSchema;

export function labelForm(serviceId: string, t: TFunction<'labelsTab'>): ResourceForm<Label, Schema> {
  return {
    schema: (item) => (item ? labelEditFormSchema : labelFormSchema),
    values: (item) => ({ key: item?.key ?? '', value: item?.value ?? '' }),
    save: ({ key, value }, item) => labelsApi.set(serviceId, item?.key ?? key, { value }),
    texts: {
      createTitle: t('createTitle'),
      editTitle: (name) => t('editTitle', { name }),
      create: t('create'),
      createFailed: t('createFailed'),
      updateFailed: t('updateFailed'),
    },
    fields: (f, item) => [
      !item &&
        f.text('key', 'label-key', t('key'), {
          hint: t('keyHint'),
          input: { ...VERBATIM, required: true, maxLength: 63 },
        }),
      f.text('value', 'label-value', t('value'), {
        hint: t('valueHint'),
        optional: true,
        input: { ...VERBATIM, maxLength: 63 },
      }),
    ],
  };
}
