// The pages' view of SHIPPED_FEATURES (@debesis/contract): a text, list item or section about a
// feature is shown only once the feature has shipped. Read at render time, never copied.
import { SHIPPED_FEATURES, type Feature } from '@debesis/contract';

/** What a text needs: one feature, or several that must all have shipped. */
export type Needs = Feature | readonly Feature[];

/** Whether everything `needs` names has shipped (nothing named: always). */
export function isShipped(needs: Needs | undefined): boolean {
  if (needs === undefined) return true;
  const features: readonly Feature[] = typeof needs === 'string' ? [needs] : needs;
  return features.every((feature) => SHIPPED_FEATURES.includes(feature));
}

/** The items whose `needs` have shipped, in their order. */
export function shippedOnly<Item extends { needs?: Needs }>(items: readonly Item[]): Item[] {
  return items.filter((item) => isShipped(item.needs));
}

/** The shipped ones of `parts` as one phrase in `language`: "a", "a and b", "a, b and c" (or "or"). */
export function shippedList(
  parts: readonly { needs?: Needs; text: string }[],
  language: string,
  type: 'conjunction' | 'disjunction' = 'conjunction',
): string {
  const texts = shippedOnly(parts).map((part) => part.text);
  // British English lists have no comma before "and"/"or", as the site's texts are written.
  return new Intl.ListFormat(language === 'en' ? 'en-GB' : language, { type }).format(texts);
}
