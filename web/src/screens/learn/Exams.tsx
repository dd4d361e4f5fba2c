// Exams: timed papers drawn to a blueprint, sat through the sitting
// screen; a result compares the learner with everyone who sat the paper.
import { useState } from "react";
import { useDrawExam, useExam, useExamResult, useExams, usePublishExam, useStartExam } from "../../api/plans";
import { Link } from "../../router";
import { Failed, Field, pct, Status } from "../../ui/ui";
import { ActionTable } from "../../ui/ActionTable";
import { domainBody, DomainsFieldset, newDomain, type Domain } from "./Domains";
import { sit } from "./Plans";

export function Exams({ moderator }: { moderator: boolean }) {
  const list = useExams();
  const [form, setForm] = useState({ title: "", size: "20", minutes: "30", publish: true });
  const [domains, setDomains] = useState<Domain[]>([newDomain()]);
  const create = useDrawExam(() => setForm({ ...form, title: "" }));
  const publish = usePublishExam();
  const start = useStartExam((s) => sit(s.quiz_id, false));
  return (
    <section>
      <h1>Exams</h1>
      <p className="muted">Timed papers drawn to a blueprint. Your result compares you with everyone who sat the same paper.</p>
      <Status q={list} what="the exams" />
      <Failed m={start} />
      <Failed m={publish} />
      {list.data && list.data.length === 0 && <p>No exam is open yet.</p>}
      <ul className="cards">
        {(list.data ?? []).map((x) => (
          <li key={x.id} className="card">
            <h2>{x.title}</h2>
            <p className="muted">
              {x.question_count} questions · {x.time_limit_minutes} min{!x.is_published && " · unpublished"}
            </p>
            {!!x.domains?.length && <p className="muted">{x.domains.join(" · ")}</p>}
            <p className="actions">
              <button className="primary" disabled={start.isPending} onClick={() => start.mutate(x.id)} aria-label={`Sit ${x.title}`}>
                Sit
              </button>
              <Link className="button" href={`/exams/${x.id}/result`} aria-label={`Result of ${x.title}`}>
                Result
              </Link>
              {moderator && (
                <button disabled={publish.isPending} onClick={() => publish.mutate({ id: x.id, on: !x.is_published })}>
                  {x.is_published ? "Close" : "Publish"}
                </button>
              )}
            </p>
          </li>
        ))}
      </ul>
      {moderator && (
        <>
          <h2>Draw an exam</h2>
          <form
            onSubmit={(e) => (
              e.preventDefault(),
              create.mutate({ title: form.title, size: Number(form.size), time_limit_minutes: Number(form.minutes), publish: form.publish, domains: domains.map(domainBody) })
            )}
          >
            <div className="row">
              <Field id="exam-title" label="Exam title">
                <input required value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
              </Field>
              <Field id="exam-size" label="Questions">
                <input required type="number" min={1} max={500} value={form.size} onChange={(e) => setForm({ ...form, size: e.target.value })} />
              </Field>
              <Field id="exam-minutes" label="Minutes">
                <input required type="number" min={1} max={600} value={form.minutes} onChange={(e) => setForm({ ...form, minutes: e.target.value })} />
              </Field>
              <label className="check">
                <input type="checkbox" checked={form.publish} onChange={(e) => setForm({ ...form, publish: e.target.checked })} /> Open to learners at once
              </label>
            </div>
            <DomainsFieldset domains={domains} onChange={setDomains} idPrefix="exam" />
            <button type="submit" className="primary" disabled={create.isPending}>
              Draw exam
            </button>
          </form>
          <Failed m={create} />
        </>
      )}
    </section>
  );
}

export function ExamResult({ id }: { id: number }) {
  const exam = useExam(id);
  const res = useExamResult(id);
  const r = res.data;
  return (
    <section>
      <p className="muted">
        <Link href="/exams">Exams</Link> ›
      </p>
      <h1>{exam.data?.title ?? "Exam"}: result</h1>
      <Status q={res} what="the result" />
      {r && (
        <>
          <dl className="stats">
            <div><dt>Score</dt><dd>{r.score}/{r.total}</dd></div>
            <div><dt>Percentage</dt><dd>{pct(r.percentage)}</dd></div>
            <div><dt>Percentile</dt><dd>{pct(r.percentile)}</dd></div>
            <div><dt>Sat by</dt><dd>{r.sitters}</dd></div>
          </dl>
          <h2>By domain</h2>
          <ActionTable
            label="Score by domain"
            rows={r.domains ?? []}
            rowKey={(d) => d.name}
            columns={[
              { header: "Domain", cell: (d) => d.name },
              { header: "Correct", num: true, cell: (d) => `${d.correct}/${d.total}` },
              { header: "Score", num: true, cell: (d) => pct(d.percentage) },
            ]}
          />
          {!!r.weakest?.length && (
            <>
              <h2>Work on next</h2>
              <ul>
                {r.weakest.map((d) => (
                  <li key={d.name}>
                    <strong>{d.name}</strong> ({pct(d.percentage)}){d.deck_ids?.length ? " · " : ""}
                    {!!d.deck_ids?.length && <Link href={`/flashcards/study?deck=${d.deck_ids[0]}`}>study its deck</Link>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
