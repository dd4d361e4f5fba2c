// The learner dashboard's pictures (issue 38): scores over time, accuracy
// by category, questions answered per day, time per question against the
// cohort and readiness toward a plan's exam date. Each is a Figure with the
// table behind it; the library loads with the first one drawn.
import { useCharts } from "../../api/attempts";
import { usePlan, usePlans } from "../../api/plans";
import { Bars } from "../../charts/Bars";
import { Chart, Figure } from "../../charts/Figure";
import { Heatmap } from "../../charts/Heatmap";
import type { components } from "../../api/schema";
import { pct, plural, Status } from "../../ui/ui";

type Category = components["schemas"]["CategoryResponse"];

const secs = (iso: string) => Date.parse(iso) / 1000;
const day = (iso: string) => new Date(iso).toLocaleDateString();
const perQ = (v: number | null | undefined) => (v == null ? "–" : `${Math.round(v)} s`);

export function DashboardCharts({ categories }: { categories: Category[] }) {
  const q = useCharts();
  const c = q.data;
  return (
    <section aria-labelledby="charts-h">
      <h2 id="charts-h">Your progress</h2>
      <Status q={q} what="your charts" />
      {c && (
        <div className="charts">
          <Scores scores={c.scores ?? []} />
          <Accuracy categories={categories} />
          <PerDay days={c.days ?? []} />
          <Pace pace={c.pace ?? []} />
          <Readiness scores={c.scores ?? []} />
        </div>
      )}
    </section>
  );
}

type Score = components["schemas"]["ScorePointResponse"];

function Scores({ scores }: { scores: Score[] }) {
  const timed = scores.filter((s) => s.mode === "timed");
  return (
    <Figure
      title="Score over time"
      summary={scores.length ? `${plural(timed.length, "timed attempt")}, ${plural(scores.length - timed.length, "study attempt")} over the last year.` : undefined}
      rows={[...scores].reverse()}
      rowKey={(s) => s.attempt_id}
      testid="chart-scores"
      columns={[
        { header: "Finished", cell: (s) => day(s.completed_at) },
        { header: "Quiz", cell: (s) => s.quiz_title },
        { header: "Mode", cell: (s) => (s.mode === "timed" ? "Timed" : "Study") },
        { header: "Score", cell: (s) => pct(s.percentage) },
      ]}
    >
      <Chart
        spec={{
          x: scores.map((s) => secs(s.completed_at)),
          time: true,
          yMax: 100,
          yUnit: "%",
          series: [
            { label: "Timed", tone: "accent", values: scores.map((s) => (s.mode === "timed" ? s.percentage : null)) },
            { label: "Study", tone: "warn", dash: true, values: scores.map((s) => (s.mode === "timed" ? null : s.percentage)) },
          ],
        }}
      />
    </Figure>
  );
}

// Accuracy by category, weakest first (the dashboard's own order); each
// bar opens the question browser on that category, where a test is built.
function Accuracy({ categories }: { categories: Category[] }) {
  const name = (c: Category) => c.category_name ?? "Uncategorised";
  return (
    <Figure
      title="Accuracy by category"
      summary="Weakest first. Pick a category to practise its questions."
      rows={categories}
      rowKey={(c) => c.category_id ?? 0}
      testid="chart-accuracy"
      columns={[
        { header: "Category", cell: name },
        { header: "Answered", cell: (c) => c.answered },
        { header: "Right", cell: (c) => c.correct },
        { header: "Accuracy", cell: (c) => pct(c.percentage) },
      ]}
    >
      <Bars
        bars={categories.map((c) => ({
          key: c.category_id ?? 0,
          label: name(c),
          value: c.percentage,
          text: `${pct(c.percentage)} of ${c.answered}`,
          tone: c.percentage < 50 ? "bad" : c.percentage < 75 ? "warn" : "ok",
          href: c.category_id ? `/browse?category=${c.category_id}` : undefined,
        }))}
      />
    </Figure>
  );
}

type Day = components["schemas"]["DayResponse"];

function PerDay({ days }: { days: Day[] }) {
  const total = days.reduce((n, d) => n + d.answered, 0);
  return (
    <Figure
      title="Questions answered per day"
      summary={days.length ? `${plural(total, "question")} on ${plural(days.length, "day")} in the last year.` : undefined}
      rows={[...days].reverse()}
      rowKey={(d) => d.day}
      testid="chart-days"
      columns={[
        { header: "Day", cell: (d) => d.day },
        { header: "Answered", cell: (d) => d.answered },
        { header: "Right", cell: (d) => d.correct },
      ]}
    >
      <Heatmap days={days.map((d) => ({ day: d.day, value: d.answered }))} unit="answered" />
    </Figure>
  );
}

type PacePoint = components["schemas"]["PaceResponse"];

function Pace({ pace }: { pace: PacePoint[] }) {
  return (
    <Figure
      title="Time per question"
      summary="Your timed attempts beside the median of other learners on the same quiz."
      rows={[...pace].reverse()}
      rowKey={(p) => p.attempt_id}
      testid="chart-pace"
      columns={[
        { header: "Finished", cell: (p) => day(p.completed_at) },
        { header: "Quiz", cell: (p) => p.quiz_title },
        { header: "You", cell: (p) => perQ(p.seconds_per_question) },
        { header: "Others (median)", cell: (p) => (p.cohort_seconds_per_question == null ? `too few yet (${p.cohort_attempts})` : perQ(p.cohort_seconds_per_question)) },
      ]}
    >
      <Chart
        spec={{
          x: pace.map((p) => secs(p.completed_at)),
          time: true,
          yUnit: " s",
          series: [
            { label: "You", tone: "accent", values: pace.map((p) => p.seconds_per_question) },
            { label: "Others (median)", tone: "muted", dash: true, values: pace.map((p) => p.cohort_seconds_per_question ?? null) },
          ],
        }}
      />
    </Figure>
  );
}

// Readiness: the plans with an exam date still ahead that the learner is
// enrolled in, each its blocks done over time against the even pace that
// finishes them by the exam.
function Readiness({ scores }: { scores: Score[] }) {
  const plans = usePlans();
  const today = new Date().toISOString().slice(0, 10);
  const dated = (plans.data ?? []).filter((p) => p.exam_date && p.exam_date >= today).slice(0, 3);
  const recent = scores.filter((s) => s.mode === "timed").slice(-10);
  const average = recent.length ? recent.reduce((n, s) => n + s.percentage, 0) / recent.length : null;
  return (
    <>
      {dated.map((p) => (
        <PlanReadiness key={p.id} id={p.id} average={average} recent={recent.length} />
      ))}
      {plans.data && dated.length === 0 && (
        <figure className="chart" data-testid="chart-readiness">
          <figcaption>
            <h3>Readiness for your exam</h3>
          </figcaption>
          <p>
            No study plan with an exam date ahead. <a href="/plans">Study plans</a> with an exam date show your pace here once you enrol.
          </p>
        </figure>
      )}
    </>
  );
}

const dayMs = 86400000;

function PlanReadiness({ id, average, recent }: { id: number; average: number | null; recent: number }) {
  const q = usePlan(id);
  const p = q.data;
  if (!p || !p.enrolled || !p.exam_date) return null;
  const exam = Date.parse(p.exam_date);
  const now = Date.now();
  const total = p.blocks?.length ?? 0;
  const done = (p.blocks ?? []).filter((b) => b.completed_at).map((b) => Date.parse(b.completed_at!)).sort((a, b) => a - b);
  const starts = (p.blocks ?? []).filter((b) => b.started_at).map((b) => Date.parse(b.started_at!));
  const from = Math.min(now, ...starts, ...done);
  const daysLeft = Math.max(0, Math.ceil((exam - now) / dayMs));
  const onPace = (t: number) => (exam > from ? Math.min(total, (total * (t - from)) / (exam - from)) : total);
  const xs = [from, ...done, now, exam].sort((a, b) => a - b);
  const doneBy = (t: number) => done.filter((d) => d <= t).length;
  const perWeek = daysLeft > 0 ? ((total - done.length) / daysLeft) * 7 : total - done.length;
  const rows = xs.filter((t) => t <= now).map((t) => ({ t, done: doneBy(t), pace: onPace(t) }));
  return (
    <Figure
      title={`Readiness: ${p.title}`}
      summary={
        <span className="readiness">
          <dl>
            <div><dt>Exam</dt><dd>{new Date(exam).toLocaleDateString()} ({plural(daysLeft, "day")} left)</dd></div>
            <div><dt>Blocks done</dt><dd data-testid="blocks-done">{done.length} of {total}</dd></div>
            <div><dt>To finish in time</dt><dd>{total - done.length <= 0 ? "all done" : `${Math.ceil(perWeek * 10) / 10} blocks a week`}</dd></div>
            <div><dt>Recent timed scores</dt><dd>{average == null ? "none yet" : `${pct(average)} (last ${recent})`}</dd></div>
          </dl>
        </span>
      }
      rows={rows}
      rowKey={(r) => r.t}
      testid="chart-readiness"
      columns={[
        { header: "Date", cell: (r) => new Date(r.t).toLocaleDateString() },
        { header: "Blocks done", cell: (r) => r.done },
        { header: "On an even pace", cell: (r) => Math.round(r.pace * 10) / 10 },
      ]}
    >
      <Chart
        spec={{
          x: xs.map((t) => t / 1000),
          time: true,
          yMax: Math.max(total, 1),
          series: [
            { label: "Blocks done", tone: "ok", values: xs.map((t) => (t <= now ? doneBy(t) : null)) },
            { label: "Even pace to the exam", tone: "muted", dash: true, values: xs.map(onPace) },
          ],
        }}
      />
    </Figure>
  );
}
