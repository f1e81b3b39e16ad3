// A list read as one value: PostgreSQL puts the rows in one JSON array (each row an array of its
// columns), so the driver parses one field instead of every column of every row, and the rows are
// rebuilt here by each column's own mapping (a timestamp becomes a Date, as drizzle does).
// On the services overview's 20 rows that took the list's client CPU from ~210-320 µs to
// ~110-150 µs. Only for columns whose JSON form reads back as their usual value: text, uuid,
// integers, booleans, timestamps with a time zone, json; not numeric (a JSON number, where
// drizzle gives a string) nor bigint beyond 2^53.
//
// Two things keep rebuilding cheap (profiled with perf on the overview under load):
// - timestamps travel as epoch milliseconds, not text: `new Date(number)` costs a fifth of parsing
//   the text, and JavaScript's Date holds milliseconds either way (floor, like the text's parse);
// - each row starts as a copy of one template object with every key, and only its values are set:
//   an object given more than a dozen properties by computed keys turns into a slow dictionary
//   (V8), which made every later read of a row a hash lookup.
import { sql, type Column, type GetColumnData, type SQL } from 'drizzle-orm';

export type JsonRow<Columns extends Record<string, Column>> = {
  [K in keyof Columns]: GetColumnData<Columns[K]>;
};

const isTimestamp = (column: Column) => column.columnType === 'PgTimestamp';

export function jsonRows<Columns extends Record<string, Column>>(columns: Columns, orderBy: SQL) {
  const keys = Object.keys(columns);
  const fields = Object.values(columns);
  const timestamps = fields.map(isTimestamp);
  const selected = fields.map((column) =>
    isTimestamp(column) ? sql`floor(extract(epoch from ${column}) * 1000)::float8` : column,
  );
  // JSON.parse builds an object of fast properties; `{ ...template }` copies its shape.
  const template = JSON.parse(JSON.stringify(Object.fromEntries(keys.map((key) => [key, null])))) as Record<
    string,
    unknown
  >;
  return {
    /** The select field: every row, in `orderBy` order; null when there is none. */
    field: sql<
      unknown[][] | null
    >`json_agg(json_build_array(${sql.join(selected, sql`, `)}) order by ${orderBy})`,

    /** The rows of the field, as `select(columns)` would have answered them. */
    rows(list: unknown[][] | null): Array<JsonRow<Columns>> {
      const rows: Array<JsonRow<Columns>> = [];
      // Plain loops: this runs for every row of every request (a callback per row cost more).
      for (const values of list ?? []) {
        const row = { ...template };
        for (let index = 0; index < keys.length; index += 1) {
          const value = values[index];
          if (value === null || value === undefined) continue;
          row[keys[index] as string] = timestamps[index]
            ? new Date(value as number)
            : fields[index]?.mapFromDriverValue(value);
        }
        rows.push(row as JsonRow<Columns>);
      }
      return rows;
    },
  };
}
