// Figure is every chart's frame: a heading, the picture, a key, and the
// table behind it. The table is what a screen reader reads (the picture is
// hidden from it); "Show the numbers" shows it to everyone.
import { lazy, Suspense, useId, useState, type ReactNode } from "react";
import type { PlotSpec, Tone } from "./spec";
import "./charts.css";

// uplot is fetched with the first chart drawn, never with the first load.
const Plot = lazy(() => import("./Plot"));

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

export function Figure<T>({ title, summary, children, rows, columns, rowKey, testid }: {
  title: string;
  summary?: ReactNode;
  children: ReactNode;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  testid?: string;
}) {
  const [shown, setShown] = useState(false);
  const id = useId();
  return (
    <figure className="chart" aria-labelledby={`${id}-t`} data-testid={testid}>
      <figcaption>
        <h3 id={`${id}-t`}>{title}</h3>
        {summary && <p className="hint">{summary}</p>}
      </figcaption>
      {rows.length === 0 ? <p>Nothing to draw yet.</p> : children}
      {rows.length > 0 && (
        <>
          <button type="button" className="link" aria-expanded={shown} aria-controls={`${id}-d`} onClick={() => setShown(!shown)}>
            {shown ? "Hide the numbers" : "Show the numbers"}
          </button>
          {/* Shown, the table may scroll sideways on a phone: a region a keyboard can reach. */}
          <div id={`${id}-d`} className={shown ? "scroll" : "sr-only"} tabIndex={shown ? 0 : undefined} role={shown ? "region" : undefined} aria-label={shown ? `${title}: the numbers` : undefined}>
            <table>
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr>
                  {columns.map((c) => (
                    <th key={c.header} scope="col">
                      {c.header}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={rowKey(r)}>
                    {columns.map((c, i) =>
                      i === 0 ? (
                        <th key={c.header} scope="row">
                          {c.cell(r)}
                        </th>
                      ) : (
                        <td key={c.header}>{c.cell(r)}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </figure>
  );
}

/** Chart draws a spec with the lazily loaded library, and its key. */
export function Chart({ spec }: { spec: PlotSpec }) {
  return (
    <>
      <Suspense fallback={<div className="plot" aria-hidden="true" />}>
        <Plot spec={spec} />
      </Suspense>
      <Key items={spec.series.map((s) => ({ label: s.label, tone: s.tone, dash: s.dash }))} />
    </>
  );
}

/** Key names each colour of a chart (hidden from screen readers: the
 * table's headings say the same). */
export function Key({ items }: { items: { label: string; tone: Tone; dash?: boolean }[] }) {
  return (
    <ul className="key" aria-hidden="true">
      {items.map((i) => (
        <li key={i.label}>
          <span className={`swatch tone-${i.tone}${i.dash ? " dash" : ""}`} />
          {i.label}
        </li>
      ))}
    </ul>
  );
}
