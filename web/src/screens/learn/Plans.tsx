// Study plans: the list, one plan with its blocks to sit and its reading,
// and for moderators new plans, blocks and plans drawn from a blueprint.
import { useState } from "react";
import { useArticles } from "../../api/library";
import { useAddBlock, useCreatePlan, useDrawPlan, useEnrol, useMarkRead, usePlan, usePlans, usePublishPlan, useStartBlock } from "../../api/plans";
import { Link, navigate } from "../../router";
import { fieldErrors, parseIds } from "../../lib/edit";
import { Failed, Field, Status, when } from "../../ui/ui";
import { domainBody, DomainsFieldset, newDomain, type Domain } from "./Domains";

/** sit sends the person to the sitting screen for a saved test. */
export function sit(quizId: number, learning: boolean) {
  navigate(`/quizzes/${quizId}/sit${learning ? "?study=1" : ""}`);
}

export function Plans({ moderator }: { moderator: boolean }) {
  const list = usePlans();
  const [form, setForm] = useState({ title: "", kind: "set" as "set" | "mixed", description: "", exam_date: "" });
  const create = useCreatePlan((id) => navigate(`/plans/${id}`));
  return (
    <section>
      <h1>Study plans</h1>
      <Status q={list} what="the study plans" />
      {list.data && list.data.length === 0 && <p>No study plan is open yet.</p>}
      <ul className="cards">
        {(list.data ?? []).map((p) => (
          <li key={p.id} className="card">
            <h2>
              <Link href={`/plans/${p.id}`}>{p.title}</Link>
            </h2>
            {p.description && <p>{p.description}</p>}
            <p className="muted">
              {p.kind === "mixed" ? "questions and reading" : "questions"}
              {p.exam_date && ` · exam ${p.exam_date}`}
              {!p.is_published && (p.retired ? " · retired" : " · unpublished")}
            </p>
          </li>
        ))}
      </ul>
      {moderator && (
        <>
          <h2>New plan</h2>
          <form
            className="row"
            onSubmit={(e) => (
              e.preventDefault(),
              create.mutate({ title: form.title, kind: form.kind, description: form.description || undefined, exam_date: form.exam_date || undefined })
            )}
          >
            <Field id="plan-title" label="Title">
              <input required maxLength={200} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
            </Field>
            <Field id="plan-kind" label="Blocks hold">
              <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as "set" | "mixed" })}>
                <option value="set">questions</option>
                <option value="mixed">questions and reading</option>
              </select>
            </Field>
            <Field id="plan-exam" label="Exam date">
              <input type="date" value={form.exam_date} onChange={(e) => setForm({ ...form, exam_date: e.target.value })} />
            </Field>
            <Field id="plan-description" label="Description">
              <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </Field>
            <button type="submit" className="primary" disabled={create.isPending}>
              Create plan
            </button>
          </form>
          <Failed m={create} />
          <FromBlueprint />
        </>
      )}
    </section>
  );
}

/** FromBlueprint draws an unpublished plan to a blueprint's weights:
 * papers (miniature exams) or a block per domain. */
function FromBlueprint() {
  const [form, setForm] = useState({ title: "", shape: "papers" as "papers" | "domains", papers: "2", size: "10", seed: "" });
  const [domains, setDomains] = useState<Domain[]>([newDomain()]);
  const draw = useDrawPlan((id) => navigate(`/plans/${id}`));
  const errs = fieldErrors(draw.error);
  const papers = form.shape === "papers";
  return (
    <>
      <h2>Draw a plan from a blueprint</h2>
      <p className="muted">The plan is drawn unpublished: look it over, then publish it.</p>
      <form
        onSubmit={(e) => (
          e.preventDefault(),
          draw.mutate({
            title: form.title,
            shape: form.shape,
            papers: papers ? Number(form.papers) : 1,
            size: Number(form.size),
            seed: form.seed ? Number(form.seed) : undefined,
            domains: domains.map(domainBody),
          })
        )}
      >
        <div className="row">
          <Field id="bp-title" label="Drawn plan's name" error={errs.title}>
            <input required maxLength={200} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
          </Field>
          <Field id="bp-shape" label="Shape" error={errs.shape}>
            <select value={form.shape} onChange={(e) => setForm({ ...form, shape: e.target.value as typeof form.shape })}>
              <option value="papers">Papers: miniature exams to the weights</option>
              <option value="domains">A block per domain</option>
            </select>
          </Field>
          {papers && (
            <Field id="bp-papers" label="Papers" error={errs.papers}>
              <input required type="number" min={1} max={50} value={form.papers} onChange={(e) => setForm({ ...form, papers: e.target.value })} />
            </Field>
          )}
          <Field id="bp-size" label={papers ? "Questions per paper" : "Questions in all"} error={errs.size}>
            <input required type="number" min={1} max={2000} value={form.size} onChange={(e) => setForm({ ...form, size: e.target.value })} />
          </Field>
          <Field id="bp-seed" label="Seed (repeats a draw; optional)" error={errs.seed}>
            <input type="number" min={0} value={form.seed} onChange={(e) => setForm({ ...form, seed: e.target.value })} />
          </Field>
        </div>
        <DomainsFieldset domains={domains} onChange={setDomains} idPrefix="bp" />
        {errs.domains && <p className="field-error">{errs.domains}</p>}
        <button type="submit" className="primary" disabled={draw.isPending}>
          Draw plan
        </button>
      </form>
      <Failed m={draw} />
    </>
  );
}

export function Plan({ id, moderator }: { id: number; moderator: boolean }) {
  const res = usePlan(id);
  // Reading links carry article ids; the library list gives their titles and slugs.
  const articles = useArticles({});
  const enrol = useEnrol(id);
  const publish = usePublishPlan(id);
  const start = useStartBlock((s) => sit(s.quiz_id, s.mode === "learning"));
  const read = useMarkRead();
  const [block, setBlock] = useState({ title: "", ids: "", reading: "" });
  const addBlock = useAddBlock(id, () => setBlock({ title: "", ids: "", reading: "" }));
  if (!res.data) return <Status q={res} what="the plan" />;
  const p = res.data;
  const blocks = p.blocks ?? [];
  const article = (aid: number) => articles.data?.find((a) => a.id === aid);
  return (
    <section>
      <p className="muted">
        <Link href="/plans">Study plans</Link> ›
      </p>
      <h1>{p.title}</h1>
      {p.description && <p className="lead">{p.description}</p>}
      <dl className="stats">
        <div><dt>Blocks done</dt><dd>{p.blocks_completed}/{blocks.length}</dd></div>
        {p.kind === "mixed" && <div><dt>Reading done</dt><dd>{p.reading_done}/{p.reading_total}</dd></div>}
        {p.exam_date && <div><dt>Exam</dt><dd>{p.exam_date}</dd></div>}
      </dl>
      <p className="actions">
        {!p.enrolled && !!p.is_published && (
          <button className="primary" onClick={() => enrol.mutate()} disabled={enrol.isPending}>
            Enrol
          </button>
        )}
        {p.enrolled && <span className="badge ok">enrolled</span>}
        {moderator && (
          <button onClick={() => publish.mutate(!p.is_published)} disabled={publish.isPending}>
            {p.is_published ? "Retire" : "Publish"}
          </button>
        )}
      </p>
      <Failed m={enrol} />
      <Failed m={publish} />
      <Failed m={start} />
      <Failed m={read} />
      <h2>Blocks</h2>
      {blocks.length === 0 && <p>No block yet.</p>}
      <ol className="blocks">
        {blocks.map((b) => (
          <li key={b.id} className={`card ${b.completed_at ? "done" : ""}`}>
            <h3>{b.title}</h3>
            <p className="muted">
              {b.question_ids?.length ?? 0} questions · {b.completed_at ? `done ${when(b.completed_at)}` : b.started_at ? `started ${when(b.started_at)}` : "not started"}
            </p>
            {!!b.reading?.length && (
              <ul className="reading">
                {b.reading.map((r) => {
                  const a = article(r.article_id);
                  return (
                    <li key={r.id}>
                      <label className="check">
                        <input type="checkbox" checked={!!r.read_at} disabled={read.isPending} onChange={(e) => read.mutate({ link: r.id, on: e.target.checked })} />
                        Read
                      </label>{" "}
                      {a ? <Link href={`/articles/${a.slug}${r.section_id ? `#${r.section_id}` : ""}`}>{a.title}</Link> : `Article ${r.article_id}`}
                    </li>
                  );
                })}
              </ul>
            )}
            <p className="actions">
              <button className="primary" disabled={start.isPending} onClick={() => start.mutate({ block: b.id, mode: "timed" })} aria-label={`Sit timed: ${b.title}`}>
                Sit timed
              </button>
              <button disabled={start.isPending} onClick={() => start.mutate({ block: b.id, mode: "learning" })} aria-label={`Study: ${b.title}`}>
                Study
              </button>
            </p>
          </li>
        ))}
      </ol>
      {moderator && (
        <>
          <h2>Add a block</h2>
          <form
            className="row"
            onSubmit={(e) => (
              e.preventDefault(),
              addBlock.mutate({ title: block.title, question_ids: parseIds(block.ids), reading: parseIds(block.reading).map((article_id) => ({ article_id })) })
            )}
          >
            <Field id="block-title" label="Block title">
              <input required value={block.title} onChange={(e) => setBlock({ ...block, title: e.target.value })} />
            </Field>
            <Field id="block-ids" label="Question ids">
              <input required placeholder="12, 13, 14" value={block.ids} onChange={(e) => setBlock({ ...block, ids: e.target.value })} />
            </Field>
            {p.kind === "mixed" && (
              <Field id="block-reading" label="Article ids to read">
                <input value={block.reading} onChange={(e) => setBlock({ ...block, reading: e.target.value })} />
              </Field>
            )}
            <button type="submit" disabled={addBlock.isPending}>
              Add block
            </button>
          </form>
          <Failed m={addBlock} />
        </>
      )}
    </section>
  );
}
