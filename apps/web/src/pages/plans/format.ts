// Numbers and dates as the plan and payment pages show them, in the reader's language (spec §9:
// two decimals).
import { formatMoney, numberFormat, type MoneyLocale } from '@debesis/pricing';

/** The locale numbers, money and percentages are written in: lt-LT ("1 234,50 €") or en-US ("€1,234.50"). */
export function numberLocale(language: string): MoneyLocale {
  return language.startsWith('lt') ? 'lt-LT' : 'en-US';
}

/** The kept formatter for a locale and options (@debesis/pricing). */
export { numberFormat };

export function money(amountMinor: number, language: string): string {
  return formatMoney(amountMinor, numberLocale(language));
}

/** 21 → "21%" (en) or "21 %" (lt); 25.5 → "25.5%" / "25,5 %". */
export function percent(rate: number, language: string): string {
  return numberFormat(numberLocale(language), { style: 'percent', maximumFractionDigits: 2 }).format(
    rate / 100,
  );
}

/** Disk of a plan card: whole terabytes as TB (2048 → "2 TB"), anything else in GB. */
export function diskSize(gb: number, language: string): string {
  const number = numberFormat(numberLocale(language));
  return gb >= 1024 && gb % 1024 === 0 ? `${number.format(gb / 1024)} TB` : `${number.format(gb)} GB`;
}

/** A country code named in the reader's language ("LT" → "Lithuania" / "Lietuva"). */
export function countryName(code: string, language: string): string {
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A date as the reader writes it ("Jan 15, 2027" / "2027-01-15"); the text itself if it is not a date. */
export function formatDate(value: string | Date, language: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return typeof value === 'string' ? value : '';
  return new Intl.DateTimeFormat(numberLocale(language), { dateStyle: 'medium' }).format(date);
}
