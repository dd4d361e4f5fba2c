import type { ReactNode } from "react";

export type Column<T> = { header: string; cell: (row: T) => ReactNode; num?: boolean };

/** ActionTable is a table of rows with their actions: the first column
 * heads each row (its name), the last holds the row's buttons. It scrolls
 * sideways inside itself on a phone, as a labelled, focusable region. */
export function ActionTable<T>(props: { label: string; rows: T[]; rowKey: (row: T) => string | number; columns: Column<T>[]; actions?: (row: T) => ReactNode; tall?: boolean }) {
  const { label, rows, rowKey, columns, actions } = props;
  const [head, ...rest] = columns;
  return (
    <div className={props.tall ? "scroll tall" : "scroll"} tabIndex={0} role="region" aria-label={label}>
      <table>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={c.num ? "num" : undefined}>
                {c.header}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              <th scope="row" className="row-head">
                {head.cell(row)}
              </th>
              {rest.map((c) => (
                <td key={c.header} className={c.num ? "num" : undefined}>
                  {c.cell(row)}
                </td>
              ))}
              {actions && <td className="actions">{actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
