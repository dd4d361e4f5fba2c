// The admins' usage chart (issue 38): model calls per UTC day, stacked by
// task, with the table behind it. The chart library loads with it.
import { useDailyUsage } from "../../api/admin";
import { Chart, Figure } from "../../charts/Figure";
import type { Tone } from "../../charts/spec";
import { plural, Status } from "../../ui/ui";

const tones: Tone[] = ["accent", "ok", "warn", "bad", "muted"];
const dayMs = 86_400_000;

export function UsageChart({ days }: { days: number }) {
  const q = useDailyUsage(days);
  const rows = q.data?.days ?? [];
  const since = q.data ? Date.parse(`${q.data.since}T00:00:00Z`) : 0;
  const dates = Array.from({ length: days }, (_, i) => new Date(since + i * dayMs).toISOString().slice(0, 10));
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  const calls = (day: string, task: string) => rows.find((r) => r.day === day && r.task === task)?.calls ?? 0;
  const total = rows.reduce((n, r) => n + r.calls, 0);
  return (
    <>
      <Status q={q} what="the usage per day" />
      {q.data && (
        <Figure
          title="Model calls per day"
          summary={`${plural(total, "call")} over ${plural(days, "day")}, by task (UTC days).`}
          rows={[...rows].reverse()}
          rowKey={(r) => `${r.day}-${r.task}`}
          testid="chart-ai-usage"
          columns={[
            { header: "Day", cell: (r) => r.day },
            { header: "Task", cell: (r) => r.task },
            { header: "Calls", cell: (r) => r.calls },
            { header: "Tokens", cell: (r) => (r.prompt_tokens + r.completion_tokens).toLocaleString() },
          ]}
        >
          <Chart
            spec={{
              x: dates.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000),
              time: true,
              stack: true,
              series: tasks.map((t, i) => ({ label: t, tone: tones[i % tones.length], kind: "bars" as const, values: dates.map((d) => calls(d, t)) })),
            }}
          />
        </Figure>
      )}
    </>
  );
}
