// A plan selection as a form for the form hook: the fields' texts, checked by @debesis/pricing's
// validateSelection (the rules POST /orders/calculate-price and /plan-changes/ apply), each refusal
// a catalogue code with its limit ("not_multiple_of_unit?limit=10"), parsed into a PlanSelection.
import { validateSelection, type PricingProduct } from '@debesis/pricing';
import { z } from 'zod';

export function toNumber(text: string): number {
  return text.trim() === '' ? Number.NaN : Number(text);
}

const selectionFields = z.object({ disk_space: z.string(), users_count: z.string(), period_id: z.string() });
export type SelectionFormValues = z.input<typeof selectionFields>;

/**
 * The schema of `product`'s selection (no product chosen yet: nothing to check). Without `period`,
 * the billing period is not the form's to check (the plan-change page keeps the service's own; the
 * server says whether the plan offers it).
 */
export function selectionFormSchema(
  product: PricingProduct | null,
  { period = true }: { period?: boolean } = {},
) {
  return selectionFields
    .transform((values) => ({
      disk_space: toNumber(values.disk_space),
      users_count: toNumber(values.users_count),
      period_id: values.period_id,
    }))
    .superRefine((selection, context) => {
      if (!product) return;
      for (const error of validateSelection(product, selection)) {
        if (!period && error.field === 'period_id') continue;
        const limit = error.limit === undefined ? '' : `?limit=${String(error.limit)}`;
        context.addIssue({ code: 'custom', path: [error.field], message: `${error.code}${limit}` });
      }
    });
}
