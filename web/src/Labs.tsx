import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Status } from "./ui";

const useLabs = () =>
  useQuery({ queryKey: ["labs"], staleTime: 300_000, queryFn: async () => must(await api.GET("/api/v1/study-tools/lab-values")) });

/** LabTable is the reference table with its tabs and a filter; the browser
 * page and the side panel of a sitting show the same one. */
export function LabTable({ compact = false }: { compact?: boolean }) {
  const res = useLabs();
  const [tab, setTab] = useState<string | null>(null);
  const [q, setQ] = useState("");
  if (!res.data) return <Status q={res} />;
  const needle = q.trim().toLowerCase();
  // A filter searches every tab; otherwise one tab shows (the first by default).
  const group = tab ?? res.data.tabs?.[0]?.group;
  const rows = (res.data.values ?? []).filter((v) => (needle ? `${v.name} ${v.specimen} ${v.group}`.toLowerCase().includes(needle) : v.group === group));
  const id = compact ? "lab-filter-panel" : "lab-filter";
  return (
    <div className="labs">
      <div className="field">
        <label htmlFor={id}>Find a test</label>
        <input id={id} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {!needle && (
        <p className="actions tabs" role="group" aria-label="Groups">
          {(res.data.tabs ?? []).map((t) => (
            <button key={t.group} aria-pressed={t.group === group} onClick={() => setTab(t.group ?? "")}>
              {t.group} <span className="muted">({t.count})</span>
            </button>
          ))}
        </p>
      )}
      {rows.length === 0 ? (
        <p>No test matches.</p>
      ) : (
        <div className="scroll" tabIndex={0} role="region" aria-label="Reference values">
          <table className="lab-table">
            <thead>
              <tr>
                <th>Test</th>
                <th>Reference (SI)</th>
                {!compact && <th>Conventional</th>}
                {!compact && <th>Specimen</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id}>
                  <th scope="row">
                    {v.name}
                    {v.age_group && !/^adult$/i.test(v.age_group) && <span className="muted"> ({v.age_group})</span>}
                  </th>
                  <td>
                    {v.reference_range} {v.units}
                  </td>
                  {!compact && <td>{v.conventional_range ? `${v.conventional_range} ${v.conventional_units ?? ""}` : "–"}</td>}
                  {!compact && <td>{v.specimen}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {res.data.truncated && <p className="muted">Showing 500 of {res.data.total}.</p>}
    </div>
  );
}

export function Labs() {
  return (
    <section>
      <h1>Lab values</h1>
      <p className="muted">Reference ranges, also at hand in the side panel while you sit a quiz.</p>
      <LabTable />
    </section>
  );
}
