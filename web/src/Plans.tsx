import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link, navigate } from "./router";
import { Failed, Field, pct, Status, when } from "./ui";
import { fieldErrors, parseIds } from "./edit";

/** sit sends the person to the existing sitting screen for a saved test. */
function sit(quizId: number, learning: boolean) {
  navigate(`/quizzes/${quizId}/sit${learning ? "?study=1" : ""}`);
}

export function Plans({ moderator }: { moderator: boolean }) {
  const list = useQuery({ queryKey: ["plans"], queryFn: async () => must(await api.GET("/api/v1/study-plans", { params: { query: { limit: 100 } } })) });
  const [form, setForm] = useState({ title: "", kind: "set" as "set" | "mixed", description: "", exam_date: "" });
  const create = useMutation({
    mutationFn: async () =>
      must(await api.POST("/api/v1/study-plans", { body: { title: form.title, kind: form.kind, description: form.description || undefined, exam_date: form.exam_date || undefined } })),
    onSuccess: (p) => navigate(`/plans/${p.id}`),
  });
  return (
    <section>
      <h1>Study plans</h1>
      <Status q={list} />
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
          <form className="row" onSubmit={(e) => (e.preventDefault(), create.mutate())}>
            <label className="field grow">
              Title <input required maxLength={200} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
            </label>
            <div className="field">
              <label htmlFor="plan-kind">Blocks hold</label>
              <select id="plan-kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as "set" | "mixed" })}>
                <option value="set">questions</option>
                <option value="mixed">questions and reading</option>
              </select>
            </div>
            <label className="field">
              Exam date <input type="date" value={form.exam_date} onChange={(e) => setForm({ ...form, exam_date: e.target.value })} />
            </label>
            <label className="field grow">
              Description <input value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} />
            </label>
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
  const draw = useMutation({
    mutationFn: async () =>
      must(
        await api.POST("/api/v1/study-plans/from-blueprint", {
          body: {
            title: form.title,
            shape: form.shape,
            papers: form.shape === "papers" ? Number(form.papers) : 1,
            size: Number(form.size),
            seed: form.seed ? Number(form.seed) : undefined,
            domains: domains.map(domainBody),
          },
        }),
      ),
    onSuccess: (p) => navigate(`/plans/${p.id}`),
  });
  const errs = fieldErrors(draw.error);
  const papers = form.shape === "papers";
  return (
    <>
      <h2>Draw a plan from a blueprint</h2>
      <p className="muted">The plan is drawn unpublished: look it over, then publish it.</p>
      <form onSubmit={(e) => (e.preventDefault(), draw.mutate())}>
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
  const qc = useQueryClient();
  const key = ["plan", id];
  const res = useQuery({ queryKey: key, queryFn: async () => must(await api.GET("/api/v1/study-plans/{plan_id}", { params: { path: { plan_id: id } } })) });
  // Reading links carry article ids; the library list gives their titles and slugs.
  const articles = useQuery({
    queryKey: ["articles", ""],
    enabled: !!res.data?.blocks?.some((b) => b.reading?.length),
    queryFn: async () => must(await api.GET("/api/v1/articles/", { params: { query: { limit: 100 } } })),
  });
  const set = (p: unknown) => qc.setQueryData(key, p);
  const enrol = useMutation({ mutationFn: async () => must(await api.POST("/api/v1/study-plans/{plan_id}/enrol", { params: { path: { plan_id: id } } })), onSuccess: set });
  const publish = useMutation({
    mutationFn: async (on: boolean) => must(await api.PATCH("/api/v1/study-plans/{plan_id}/publish", { params: { path: { plan_id: id }, query: { published: on } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
  const start = useMutation({
    mutationFn: async ({ block, mode }: { block: number; mode: "learning" | "timed" }) =>
      must(await api.POST("/api/v1/study-plans/blocks/{block_id}/start", { params: { path: { block_id: block }, query: { mode } } })),
    onSuccess: (s) => sit(s.quiz_id, s.mode === "learning"),
  });
  const read = useMutation({
    mutationFn: async ({ link, on }: { link: number; on: boolean }) => {
      const r = await api.POST("/api/v1/study-plans/reading/{link_id}/read", { params: { path: { link_id: link }, query: { read: on } } });
      if (!r.response.ok) must(r);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
  const [block, setBlock] = useState({ title: "", ids: "", reading: "" });
  const addBlock = useMutation({
    mutationFn: async () =>
      must(
        await api.POST("/api/v1/study-plans/{plan_id}/blocks", {
          params: { path: { plan_id: id } },
          body: { title: block.title, question_ids: parseIds(block.ids), reading: parseIds(block.reading).map((article_id) => ({ article_id })) },
        }),
      ),
    onSuccess: (p) => (set(p), setBlock({ title: "", ids: "", reading: "" })),
  });
  if (!res.data) return <Status q={res} />;
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
          <form className="row" onSubmit={(e) => (e.preventDefault(), addBlock.mutate())}>
            <label className="field grow">
              Block title <input required value={block.title} onChange={(e) => setBlock({ ...block, title: e.target.value })} />
            </label>
            <label className="field grow">
              Question ids <input required placeholder="12, 13, 14" value={block.ids} onChange={(e) => setBlock({ ...block, ids: e.target.value })} />
            </label>
            {p.kind === "mixed" && (
              <label className="field">
                Article ids to read <input value={block.reading} onChange={(e) => setBlock({ ...block, reading: e.target.value })} />
              </label>
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

type Domain = { name: string; weight: string; category: string; ids: string };

const newDomain = (): Domain => ({ name: "", weight: "1", category: "", ids: "" });

const domainBody = (d: Domain) => ({
  name: d.name,
  weight: Number(d.weight),
  category_id: d.category ? Number(d.category) : undefined,
  question_ids: d.ids ? parseIds(d.ids) : undefined,
});

/** DomainsFieldset edits a blueprint's weighted domains (exams and plans
 * drawn from a blueprint share it); idPrefix keeps two on a page apart. */
function DomainsFieldset({ domains, onChange, idPrefix }: { domains: Domain[]; onChange: (d: Domain[]) => void; idPrefix: string }) {
  const cats = useQuery({ queryKey: ["question-categories"], queryFn: async () => must(await api.GET("/api/v1/question-categories/")) });
  const setDomain = (i: number, d: Partial<Domain>) => onChange(domains.map((x, j) => (j === i ? { ...x, ...d } : x)));
  return (
    <fieldset className="domains">
      <legend>Domains</legend>
      {domains.map((d, i) => (
        <div className="row" key={i}>
          <label className="field grow">
            Domain {i + 1} <input required value={d.name} onChange={(e) => setDomain(i, { name: e.target.value })} />
          </label>
          <label className="field">
            Weight <input required type="number" min={0.01} step="any" value={d.weight} onChange={(e) => setDomain(i, { weight: e.target.value })} />
          </label>
          <div className="field">
            <label htmlFor={`${idPrefix}-domain-cat-${i}`}>Draws from</label>
            <select id={`${idPrefix}-domain-cat-${i}`} value={d.category} onChange={(e) => setDomain(i, { category: e.target.value })}>
              <option value="">No topic</option>
              {(cats.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <label className="field">
            Question ids (optional) <input value={d.ids} onChange={(e) => setDomain(i, { ids: e.target.value })} />
          </label>
          {domains.length > 1 && (
            <button type="button" onClick={() => onChange(domains.filter((_, j) => j !== i))} aria-label={`Remove domain ${i + 1}`}>
              Remove
            </button>
          )}
        </div>
      ))}
      <p>
        <button type="button" onClick={() => onChange([...domains, newDomain()])}>
          Add domain
        </button>
      </p>
    </fieldset>
  );
}

export function Exams({ moderator }: { moderator: boolean }) {
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ["exams"], queryFn: async () => must(await api.GET("/api/v1/exams", { params: { query: { limit: 100 } } })) });
  const [form, setForm] = useState({ title: "", size: "20", minutes: "30", publish: true });
  const [domains, setDomains] = useState<Domain[]>([newDomain()]);
  const create = useMutation({
    mutationFn: async () =>
      must(
        await api.POST("/api/v1/exams", {
          body: {
            title: form.title,
            size: Number(form.size),
            time_limit_minutes: Number(form.minutes),
            publish: form.publish,
            domains: domains.map(domainBody),
          },
        }),
      ),
    onSuccess: () => (qc.invalidateQueries({ queryKey: ["exams"] }), setForm({ ...form, title: "" })),
  });
  const publish = useMutation({
    mutationFn: async ({ id, on }: { id: number; on: boolean }) => must(await api.PATCH("/api/v1/exams/{exam_id}/publish", { params: { path: { exam_id: id }, query: { published: on } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["exams"] }),
  });
  const start = useMutation({
    mutationFn: async (id: number) => must(await api.POST("/api/v1/exams/{exam_id}/start", { params: { path: { exam_id: id } } })),
    onSuccess: (s) => sit(s.quiz_id, false),
  });
  return (
    <section>
      <h1>Exams</h1>
      <p className="muted">Timed papers drawn to a blueprint. Your result compares you with everyone who sat the same paper.</p>
      <Status q={list} />
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
          <form onSubmit={(e) => (e.preventDefault(), create.mutate())}>
            <div className="row">
              <label className="field grow">
                Exam title <input required value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
              </label>
              <label className="field">
                Questions <input required type="number" min={1} max={500} value={form.size} onChange={(e) => setForm({ ...form, size: e.target.value })} />
              </label>
              <label className="field">
                Minutes <input required type="number" min={1} max={600} value={form.minutes} onChange={(e) => setForm({ ...form, minutes: e.target.value })} />
              </label>
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
  const exam = useQuery({ queryKey: ["exam", id], queryFn: async () => must(await api.GET("/api/v1/exams/{exam_id}", { params: { path: { exam_id: id } } })) });
  const res = useQuery({ queryKey: ["exam-result", id], retry: false, queryFn: async () => must(await api.GET("/api/v1/exam-results/{exam_id}", { params: { path: { exam_id: id } } })) });
  const r = res.data;
  return (
    <section>
      <p className="muted">
        <Link href="/exams">Exams</Link> ›
      </p>
      <h1>{exam.data?.title ?? "Exam"}: result</h1>
      <Status q={res} />
      {r && (
        <>
          <dl className="stats">
            <div><dt>Score</dt><dd>{r.score}/{r.total}</dd></div>
            <div><dt>Percentage</dt><dd>{pct(r.percentage)}</dd></div>
            <div><dt>Percentile</dt><dd>{pct(r.percentile)}</dd></div>
            <div><dt>Sat by</dt><dd>{r.sitters}</dd></div>
          </dl>
          <h2>By domain</h2>
          <div className="scroll" tabIndex={0} role="region" aria-label="Score by domain">
            <table>
              <thead><tr><th>Domain</th><th className="num">Correct</th><th className="num">Score</th></tr></thead>
              <tbody>
                {(r.domains ?? []).map((d) => (
                  <tr key={d.name}>
                    <td>{d.name}</td>
                    <td className="num">{d.correct}/{d.total}</td>
                    <td className="num">{pct(d.percentage)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
