// A report's table declared as columns (backup history and restores, snapshots, backup clients, a
// backup's folder, share links and their access log, subusers and their sessions, monitoring's
// users, events, owners, daemons and tasks): the header row, a row per item whose first cell is its
// row header unless the table says otherwise, numeric columns right-aligned, an actions column
// named for screen readers only, all inside the table's own scroll box (TableScroll); and, when
// there are no rows and the table is given one, the empty-state line in its place.
import type { ReactNode } from 'react';
import { TableScroll } from './TableScroll.tsx';

/** The data-* attributes a test or a style reads on a row or a cell (`data-testid`, `data-state`…). */
export type DataAttributes = { [name: `data-${string}`]: string | boolean | undefined };

export interface Column<Row> {
  title: string;
  /** The title read by screen readers only (a column of row actions). */
  hideTitle?: boolean;
  /** The header cell's content when it is a control rather than the title (a select-all box). */
  header?: ReactNode;
  /** Right-aligned, header and cells. */
  numeric?: boolean;
  /** The body cells' own class. */
  className?: string;
  /** The body cell's data-* attributes. */
  data?: (row: Row) => DataAttributes;
  cell: (row: Row) => ReactNode;
}

export interface DataTableProps<Row> {
  /** The scroll box's name (usually the report's title). */
  label: string;
  /** A column given as false is left out (one shown only when the data has it). */
  columns: readonly (Column<Row> | false)[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  rowData?: (row: Row) => DataAttributes;
  /** False when no column names the row (an event log): every cell is then a plain cell. */
  rowHeader?: boolean;
  /** Rows after the items' (a total, "everything else"). */
  after?: ReactNode;
  /** The table's class beside `data-table`. */
  className?: string;
  testId?: string;
  /** Shown instead of the table when there are no rows; without it, the table shows its header. */
  empty?: { text: ReactNode; testId?: string; className?: string };
}

const classes = (...names: (string | false | undefined)[]): string | undefined =>
  names.filter(Boolean).join(' ') || undefined;

export function DataTable<Row>({
  label,
  columns: given,
  rows,
  rowKey,
  rowData,
  rowHeader = true,
  after,
  className,
  testId,
  empty,
}: DataTableProps<Row>) {
  const columns = given.filter((column): column is Column<Row> => column !== false);
  if (empty && rows.length === 0) {
    return (
      <p className={empty.className ?? 'text-muted resource-section__empty'} data-testid={empty.testId}>
        {empty.text}
      </p>
    );
  }
  return (
    <TableScroll label={label}>
      <table className={classes('data-table', className)} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={classes(column.numeric && 'numeric')}>
                {column.header ??
                  (column.hideTitle ? <span className="visually-hidden">{column.title}</span> : column.title)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowData?.(row)}>
              {columns.map((column, index) => {
                const Cell = rowHeader && index === 0 ? 'th' : 'td';
                return (
                  <Cell
                    key={index}
                    scope={Cell === 'th' ? 'row' : undefined}
                    className={classes(column.numeric && 'numeric', column.className)}
                    {...column.data?.(row)}
                  >
                    {column.cell(row)}
                  </Cell>
                );
              })}
            </tr>
          ))}
          {after}
        </tbody>
      </table>
    </TableScroll>
  );
}
