import { useState } from "react";
import { usePeople, useUsage } from "../../api/admin";
import { Field, Status } from "../../ui/ui";
import { UsageChart } from "./UsageChart";

/** Usage is the AI token use per person and task over the last days. */
export function Usage() {
  const [days, setDays] = useState(30);
  const res = useUsage(days);
  const people = usePeople();
  const name = (id: number) => people.data?.find((u) => u.id === id)?.name ?? `#${id}`;
  const rows = res.data ?? [];
  const sum = (k: "calls" | "prompt_tokens" | "completion_tokens") => rows.reduce((n, r) => n + r[k], 0);
  const n = (v: number) => v.toLocaleString();
  return (
    <section>
      <h1>AI usage</h1>
      <Field id="usage-days" label="Over the last">
        <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {[1, 7, 30, 90].map((d) => (
            <option key={d} value={d}>
              {d === 1 ? "day" : `${d} days`}
            </option>
          ))}
        </select>
      </Field>
      <div className="charts">
        <UsageChart days={days} />
      </div>
      <Status q={res} what="the usage" />
      {res.data && rows.length === 0 && <p>No model call in this period.</p>}
      {rows.length > 0 && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Usage by person and task">
          <table>
            <thead>
              <tr><th>Person</th><th>Task</th><th className="num">Calls</th><th className="num">Prompt tokens</th><th className="num">Completion tokens</th></tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.user_id}-${r.task}`}>
                  <td>{name(r.user_id)}</td>
                  <td>{r.task}</td>
                  <td className="num">{n(r.calls)}</td>
                  <td className="num">{n(r.prompt_tokens)}</td>
                  <td className="num">{n(r.completion_tokens)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr><th scope="row" colSpan={2}>Total</th><td className="num">{n(sum("calls"))}</td><td className="num">{n(sum("prompt_tokens"))}</td><td className="num">{n(sum("completion_tokens"))}</td></tr>
            </tfoot>
          </table>
        </div>
      )}
      <p className="muted">Speech counts characters in the prompt column.</p>
    </section>
  );
}
