// Sizes of files and disks as people read them, shared by the dashboard and the public share page.
import { numberFormat, numberLocale } from '../pages/plans/format.ts';

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** Bytes as people read them (binary units, one decimal): 1536 → "1.5 KB". */
export function formatBytes(bytes: number, language: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const number = numberFormat(numberLocale(language), { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(
    value,
  );
  return `${number} ${BYTE_UNITS[unit]}`;
}
