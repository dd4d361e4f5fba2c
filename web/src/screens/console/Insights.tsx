// The moderators' charts (issue 38): facility against discrimination per
// question (a point opens the item), the option choices of one question,
// bank coverage by category and the draft pipeline's counts. Each is a
// Figure with the table behind it; the chart library loads with the first
// one drawn.
import { useState } from "react";
import { useItemAnalysis, useItemMap, usePipeline } from "../../api/insights";
import { useCategories } from "../../api/categories";
import type { components } from "../../api/schema";
import { Bars } from "../../charts/Bars";
import { Chart, Figure } from "../../charts/Figure";
import { Link, navigate } from "../../router";
import { pct, plural, Status } from "../../ui/ui";

type Point = components["schemas"]["ItemPointResponse"];

const two = (v: number | null | undefined) => (v == null ? "–" : v.toFixed(2));
const editor = (id: number) => `/questions/${id}/edit`;

export function Insights() {
  const map = useItemMap();
  const [picked, setPicked] = useState<number | null>(null);
  const points = map.data ?? [];
  const shown = picked ?? points[0]?.question_id ?? null;
  return (
    <section>
      <h1>Bank statistics</h1>
      <Status q={map} what="the item map" />
      <div className="charts">
        {map.data && <ItemMap points={points} onChoose={setPicked} />}
        {shown != null && <Choices id={shown} />}
        <Coverage />
        <Pipeline />
      </div>
    </section>
  );
}

function ItemMap({ points, onChoose }: { points: Point[]; onChoose: (id: number) => void }) {
  // uPlot draws over an ascending x: the points by facility.
  const drawn = points.filter((p) => p.facility != null).sort((a, b) => a.facility! - b.facility!);
  return (
    <Figure
      title="Facility against discrimination"
      summary={`${plural(points.length, "question")} answered enough to judge. Easy questions sit right, questions that tell strong from weak learners high; a point opens the question.`}
      rows={points}
      rowKey={(p) => p.question_id}
      testid="chart-item-map"
      columns={[
        { header: "Question", cell: (p) => <Link href={editor(p.question_id)}>#{p.question_id} (v{p.version})</Link> },
        { header: "Responses", cell: (p) => p.responses },
        { header: "Facility", cell: (p) => pct(p.facility == null ? null : p.facility * 100) },
        { header: "Discrimination", cell: (p) => two(p.discrimination) },
        {
          header: "Options",
          cell: (p) => (
            <button type="button" className="link" onClick={() => onChoose(p.question_id)} aria-label={`Option choices of question ${p.question_id}`}>
              Choices
            </button>
          ),
        },
      ]}
    >
      <Chart
        spec={{
          x: drawn.map((p) => Math.round(p.facility! * 1000) / 10),
          xLabel: "Facility",
          yLabel: "Discrimination",
          yMax: 1,
          series: [{ label: "A question (facility %, discrimination)", tone: "accent", kind: "points", values: drawn.map((p) => p.discrimination ?? null) }],
          onPick: (i) => navigate(editor(drawn[i].question_id)),
        }}
      />
    </Figure>
  );
}

function Choices({ id }: { id: number }) {
  const q = useItemAnalysis(id);
  const newest = q.data?.[0];
  const options = newest?.options ?? [];
  return (
    <Figure
      title={`Option choices: question #${id}`}
      summary={newest ? `${plural(newest.responses, "response")} to version ${newest.version}, ${pct((newest.blank_rate ?? 0) * 100)} left blank.` : undefined}
      rows={options}
      rowKey={(o) => o.option}
      testid="chart-choices"
      columns={[
        { header: "Option", cell: (o) => o.option },
        { header: "Chosen", cell: (o) => o.chosen },
        { header: "Share", cell: (o) => pct(o.rate * 100) },
        { header: "Discrimination", cell: (o) => two(o.discrimination) },
      ]}
    >
      <Bars bars={options.map((o) => ({ key: o.option, label: o.option, value: o.rate * 100, text: `${pct(o.rate * 100)} (${o.chosen})` }))} />
    </Figure>
  );
}

function Coverage() {
  const cats = useCategories();
  const nodes = (cats.data?.nodes ?? []).filter((c) => c.depth === 0);
  const most = Math.max(1, ...nodes.map((c) => c.branch_question_count));
  return (
    <Figure
      title="Bank coverage by category"
      summary={`Live questions in each top-level category and its subcategories.`}
      rows={nodes}
      rowKey={(c) => c.id}
      testid="chart-coverage"
      columns={[
        { header: "Category", cell: (c) => c.name },
        { header: "Questions (branch)", cell: (c) => c.branch_question_count },
        { header: "Filed directly", cell: (c) => c.question_count },
      ]}
    >
      <Bars
        bars={nodes.map((c) => ({
          key: c.id,
          label: c.name,
          value: (c.branch_question_count * 100) / most,
          text: plural(c.branch_question_count, "question"),
          tone: c.branch_question_count === 0 ? "bad" : "accent",
        }))}
      />
    </Figure>
  );
}

const label: Record<string, string> = { processing: "Processing", ready: "Ready", failed: "Failed", pending: "Pending review", accepted: "Accepted", rejected: "Rejected" };

function Pipeline() {
  const q = usePipeline();
  const rows = [...(q.data?.documents ?? []).map((d) => ({ ...d, what: "Documents" })), ...(q.data?.drafts ?? []).map((d) => ({ ...d, what: "Drafts" }))];
  const most = Math.max(1, ...rows.map((r) => r.count));
  return (
    <Figure
      title="Draft pipeline"
      summary="PDFs by processing status, their drafts by review status."
      rows={rows.some((r) => r.count) ? rows : []}
      rowKey={(r) => `${r.what}-${r.status}`}
      testid="chart-pipeline"
      columns={[
        { header: "Stage", cell: (r) => `${r.what}: ${label[r.status] ?? r.status}` },
        { header: "Count", cell: (r) => r.count },
      ]}
    >
      <Bars
        bars={rows.map((r) => ({
          key: `${r.what}-${r.status}`,
          label: `${r.what}: ${label[r.status] ?? r.status}`,
          value: (r.count * 100) / most,
          text: String(r.count),
          tone: r.status === "failed" || r.status === "rejected" ? "bad" : r.status === "ready" || r.status === "accepted" ? "ok" : "warn",
        }))}
      />
    </Figure>
  );
}
