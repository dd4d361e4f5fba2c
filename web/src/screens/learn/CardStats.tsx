// The flashcards statistics screen (issue 38), as Anki's statistics show
// them: cards due per day over the next 30 days by state, true retention
// by interval, and the spread of FSRS stability. Each is a Figure with the
// table behind it; the chart library loads with the first one drawn.
import { useCardCharts } from "../../api/flashcards";
import { Chart, Figure } from "../../charts/Figure";
import { Bars } from "../../charts/Bars";
import type { components } from "../../api/schema";
import { Link } from "../../router";
import { pct, plural, Status } from "../../ui/ui";

type DueDay = components["schemas"]["CardDueDayResponse"];
type RetentionBucket = components["schemas"]["RetentionBucketResponse"];
type StabilityBucket = components["schemas"]["StabilityBucketResponse"];

/** span names a range of days: "8–14 days", "91+ days", "under 1 day"
 * (inclusive: the upper end is in the range, else it starts the next). */
export function span(min: number, max: number | null | undefined, inclusive: boolean) {
  if (max == null) return `${min}+ days`;
  if (min === 0 && !inclusive) return `under ${plural(max, "day")}`;
  return `${min}–${max} days`;
}

export function CardStats() {
  const q = useCardCharts();
  const c = q.data;
  return (
    <section>
      <h1>Flashcard statistics</h1>
      <p className="actions">
        <Link href="/flashcards">Back to the decks</Link>
      </p>
      <Status q={q} what="your statistics" />
      {c && (
        <div className="charts">
          <Due days={c.due ?? []} unseen={c.unseen} perDay={c.new_per_day} />
          <Retention buckets={c.retention ?? []} />
          <Stability buckets={c.stability ?? []} />
        </div>
      )}
    </section>
  );
}

const dayLabel = (d: string) => new Date(`${d}T00:00:00Z`).toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

function Due({ days, unseen, perDay }: { days: DueDay[]; unseen: number; perDay: number }) {
  const total = (d: DueDay) => d.new + d.learning + d.review;
  const all = days.reduce((n, d) => n + total(d), 0);
  return (
    <Figure
      title="Due in the next 30 days"
      summary={`${plural(all, "card")} over 30 days, overdue ones today. New cards: ${perDay} a day while ${plural(unseen, "unseen card")} last.`}
      rows={all ? days : []}
      rowKey={(d) => d.day}
      testid="chart-due"
      columns={[
        { header: "Day", cell: (d) => d.day },
        { header: "New", cell: (d) => d.new },
        { header: "Learning", cell: (d) => d.learning },
        { header: "Review", cell: (d) => d.review },
        { header: "Total", cell: total },
      ]}
    >
      <Chart
        spec={{
          x: days.map((_, i) => i),
          labels: days.map((d) => dayLabel(d.day)),
          stack: true,
          series: [
            { label: "New", tone: "accent", kind: "bars", values: days.map((d) => d.new) },
            { label: "Learning", tone: "warn", kind: "bars", values: days.map((d) => d.learning) },
            { label: "Review", tone: "ok", kind: "bars", values: days.map((d) => d.review) },
          ],
        }}
      />
    </Figure>
  );
}

function Retention({ buckets }: { buckets: RetentionBucket[] }) {
  const reviews = buckets.reduce((n, b) => n + b.reviews, 0);
  const passed = buckets.reduce((n, b) => n + b.passed, 0);
  return (
    <Figure
      title="True retention by interval"
      summary={
        reviews
          ? `${pct((passed * 100) / reviews)} of ${plural(reviews, "review")} of cards in review passed (anything but Again), by the days since the card was last seen.`
          : undefined
      }
      rows={reviews ? buckets : []}
      rowKey={(b) => b.min_days}
      testid="chart-retention"
      columns={[
        { header: "Interval", cell: (b) => span(b.min_days, b.max_days, true) },
        { header: "Reviews", cell: (b) => b.reviews },
        { header: "Passed", cell: (b) => b.passed },
        { header: "Retention", cell: (b) => pct(b.retention) },
      ]}
    >
      <Bars
        bars={buckets.map((b) => ({
          key: b.min_days,
          label: span(b.min_days, b.max_days, true),
          value: b.retention ?? 0,
          text: b.retention == null ? "no reviews" : `${pct(b.retention)} of ${b.reviews}`,
          tone: b.retention == null ? "accent" : b.retention < 80 ? "bad" : b.retention < 90 ? "warn" : "ok",
        }))}
      />
    </Figure>
  );
}

function Stability({ buckets }: { buckets: StabilityBucket[] }) {
  const cards = buckets.reduce((n, b) => n + b.cards, 0);
  return (
    <Figure
      title="Stability"
      summary={cards ? `How long ${plural(cards, "card")} you have studied stay at 90% recall (FSRS stability).` : undefined}
      rows={cards ? buckets : []}
      rowKey={(b) => b.min_days}
      testid="chart-stability"
      columns={[
        { header: "Stability", cell: (b) => span(b.min_days, b.max_days, false) },
        { header: "Cards", cell: (b) => b.cards },
      ]}
    >
      <Chart
        spec={{
          x: buckets.map((_, i) => i),
          labels: buckets.map((b) => span(b.min_days, b.max_days, false)),
          series: [{ label: "Cards", tone: "accent", kind: "bars", values: buckets.map((b) => b.cards) }],
        }}
      />
    </Figure>
  );
}
