import { useDashboard } from "../../api/attempts";
import { Link } from "../../router";
import { pct, Status, when } from "../../ui/ui";
import { ActionTable } from "../../ui/ActionTable";
import { DashboardCharts } from "./DashboardCharts";

export function Dashboard() {
  const q = useDashboard();
  const d = q.data;
  return (
    <section>
      <h1>Dashboard</h1>
      <Status q={q} />
      {d && (
        <>
          <dl className="stats" data-testid="stats">
            <div><dt>Quizzes to sit</dt><dd>{d.quizzes}</dd></div>
            <div><dt>Completed attempts</dt><dd data-testid="completed">{d.completed_attempts}</dd></div>
            <div><dt>In progress</dt><dd data-testid="in-progress">{d.in_progress}</dd></div>
            <div><dt>Average score</dt><dd>{pct(d.average_score)}</dd></div>
            <div><dt>Best score</dt><dd>{pct(d.best_score)}</dd></div>
          </dl>
          <DashboardCharts categories={d.categories ?? []} />
          <h2>Recent attempts</h2>
          {!d.recent_attempts?.length ? (
            <p>
              None yet. <Link href="/quizzes">Pick a quiz</Link>.
            </p>
          ) : (
            <ActionTable
              label="Recent attempts"
              rows={d.recent_attempts}
              rowKey={(a) => a.id}
              columns={[
                {
                  header: "Quiz",
                  cell: (a) =>
                    a.completed_at ? <Link href={`/attempts/${a.id}`}>{a.quiz_title}</Link> : <Link href={`/quizzes/${a.quiz_id}/sit`}>{a.quiz_title} (resume)</Link>,
                },
                { header: "Mode", cell: (a) => a.mode },
                { header: "Score", cell: (a) => (a.completed_at ? `${a.score}/${a.total_questions} (${pct(a.percentage)})` : "–") },
                { header: "Finished", cell: (a) => when(a.completed_at) },
              ]}
            />
          )}
        </>
      )}
    </section>
  );
}
