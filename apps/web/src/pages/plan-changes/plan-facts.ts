// How the plans pages name a service's configuration and billing period, and link to its change.
import type { TFunction } from 'i18next';
import type { Product } from '@debesis/contract';
import { diskSize } from '../plans/format.ts';

type Translate = TFunction;

export const planChangePath = (serviceId: string) =>
  `/dashboard/plans/change?service=${encodeURIComponent(serviceId)}`;

/** "MINI · 50 GB · 5 users" */
export function configurationText(
  t: Translate,
  language: string,
  configuration: { plan: string; disk_space: number; users_count: number },
): string {
  return t('planFacts.configuration', {
    plan: configuration.plan,
    disk: diskSize(configuration.disk_space, language),
    count: configuration.users_count,
  });
}

/** "12 months" for a product's period id; the id itself when the catalogue does not list it. */
export function periodText(
  t: Translate,
  products: readonly Product[] | undefined,
  productId: string,
  periodId: string,
): string {
  const months = products
    ?.find((product) => product.id === productId)
    ?.periods.find((period) => period.id === periodId)?.months;
  return months === undefined ? periodId : t('planPicker.months', { count: months });
}
