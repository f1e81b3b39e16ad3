// Plain aligned text for the operator CLI: one row per line, columns padded to the widest cell.

/** Rows under a header, columns separated by two spaces; `right` columns are right-aligned. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: readonly number[] = [],
): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        right.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** Label: value lines, labels padded to the longest. */
export function fields(pairs: ReadonlyArray<readonly [string, string]>): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${`${label}:`.padEnd(width + 1)}  ${value}`).join('\n');
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units with one decimal (what `df -h` readers expect); '-' when unknown. */
export function bytes(value: number | null | undefined): string {
  if (value === null || value === undefined) return '-';
  let amount = value;
  let unit = 0;
  while (Math.abs(amount) >= 1024 && unit < UNITS.length - 1) {
    amount /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${amount} B` : `${amount.toFixed(1)} ${UNITS[unit]}`;
}

/** Minor units as `12.34 EUR`. */
export function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}

/** ISO time to the minute, UTC; '-' for none. */
export function time(value: Date | null | undefined): string {
  return value ? `${value.toISOString().slice(0, 16).replace('T', ' ')}Z` : '-';
}
