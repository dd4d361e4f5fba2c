// One batch of drafts: file it into a topic, fix drafts until they are
// ready, then accept or reject them in bulk (all or nothing).
import { useState } from "react";
import { useAccept, useBatch, useBatchDrafts, useEditDraft, useFileBatch, useReject, useReopen, type Draft } from "../../api/drafts";
import { Link } from "../../router";
import { fieldErrors } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Failed, Field, Status, Submit } from "../../ui/ui";

export function Batch({ id }: { id: number }) {
  const batch = useBatch(id);
  const drafts = useBatchDrafts(id);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const accept = useAccept((n) => (setPicked(new Set()), setDone(`Accepted ${n} into the bank.`)));
  const reject = useReject((n) => (setPicked(new Set()), setDone(`Rejected ${n}.`)));
  const reopen = useReopen(() => setDone("Reopened."));
  const fileInto = useFileBatch(id);
  const toggle = (d: number) =>
    setPicked((s) => {
      const n = new Set(s);
      if (n.has(d)) n.delete(d);
      else n.add(d);
      return n;
    });
  const pending = (drafts.data ?? []).filter((d) => d.status === "pending");
  const busy = accept.isPending || reject.isPending || reopen.isPending;
  const b = batch.data;
  return (
    <section>
      <p className="muted">
        <Link href="/drafts">PDFs and drafts</Link> ›
      </p>
      <h1>Batch {id}</h1>
      <Status q={batch} what="the batch" />
      {b && (
        <>
          <p className="muted">
            {b.source} · pages {b.start_page}–{b.end_page} · {b.extractor} · {b.counts.pending} pending, {b.counts.accepted} accepted, {b.counts.rejected} rejected ·{" "}
            {b.status}
          </p>
          <Field id="batch-topic" label="Files into topic" hint={b.category_id == null ? "Needed before any draft is accepted." : undefined}>
            <CategoryPicker value={b.category_id == null ? "" : String(b.category_id)} onChange={(v) => v && fileInto.mutate(Number(v))} none={b.category_id == null ? "Choose a category" : undefined} disabled={fileInto.isPending} />
          </Field>
        </>
      )}
      <Failed m={fileInto} />
      <div className="actions sticky" role="group" aria-label="Selected drafts">
        <button onClick={() => setPicked(new Set(pending.filter((d) => d.ready).map((d) => d.id)))} disabled={busy}>
          Select every ready draft
        </button>
        <button onClick={() => setPicked(new Set(pending.map((d) => d.id)))} disabled={busy}>
          Select every pending draft
        </button>
        <button onClick={() => setPicked(new Set())} disabled={busy || picked.size === 0}>
          Clear selection
        </button>
        <button className="primary" onClick={() => (setDone(null), accept.mutate([...picked]))} disabled={busy || picked.size === 0}>
          Accept {picked.size || ""}
        </button>
        <button onClick={() => (setDone(null), reject.mutate([...picked]))} disabled={busy || picked.size === 0}>
          Reject {picked.size || ""}
        </button>
      </div>
      <p aria-live="polite" data-testid="review-result">
        {done}
      </p>
      <Failed m={accept} />
      <Failed m={reject} />
      <Failed m={reopen} />
      <Status q={drafts} what="the drafts" />
      <ol className="drafts">
        {(drafts.data ?? []).map((d) => (
          <li key={d.id} className={`draft ${d.status}`} aria-label={`Draft ${d.position}`}>
            <div className="draft-head">
              {d.status === "pending" ? (
                <label>
                  <input type="checkbox" checked={picked.has(d.id)} onChange={() => toggle(d.id)} /> Select draft {d.position}
                </label>
              ) : (
                <span>Draft {d.position}</span>
              )}
              <span className={`badge ${d.status}`}>{d.status}</span>
              {d.status === "pending" && <span className={`badge ${d.ready ? "ok" : "bad"}`}>{d.ready ? "ready" : "not ready"}</span>}
              {d.source_page != null && <span className="muted">page {d.source_page}</span>}
              {d.status === "pending" && editing !== d.id && (
                <button onClick={() => setEditing(d.id)} aria-label={`Edit draft ${d.position}`}>
                  Edit
                </button>
              )}
              {d.status === "rejected" && (
                <button onClick={() => (setDone(null), reopen.mutate(d.id))} disabled={busy} aria-label={`Reopen draft ${d.position}`}>
                  Reopen
                </button>
              )}
            </div>
            {editing === d.id ? (
              <DraftEditor draft={d} onClose={() => setEditing(null)} />
            ) : (
              <>
                <p className="stem">{d.question_text}</p>
                {d.question_type === "mcq" && (
                  <ol className="options" type="A">
                    {(d.options ?? []).map((o, i) => (
                      <li key={i} className={o === d.correct_answer ? "right" : undefined}>
                        {o}
                        {o === d.correct_answer && <span className="sr-only"> (correct)</span>}
                      </li>
                    ))}
                  </ol>
                )}
                <p>
                  Answer: <strong>{d.correct_answer || "none"}</strong>
                </p>
                {d.explanation && <p className="muted">{d.explanation}</p>}
              </>
            )}
            {!!d.problems?.length && (
              <ul className="problems" aria-label={`Why draft ${d.position} is not ready`}>
                {d.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
            {d.question_id && <p className="muted">In the bank as question {d.question_id}.</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** DraftEditor fixes a draft in place; the server says again whether it is ready. */
function DraftEditor({ draft: d, onClose }: { draft: Draft; onClose: () => void }) {
  const [f, setF] = useState({
    question_text: d.question_text,
    question_type: d.question_type,
    options: (d.options ?? []).join("\n"),
    correct_answer: d.correct_answer,
    explanation: d.explanation,
  });
  const save = useEditDraft(d.id, onClose);
  const errs = fieldErrors(save.error);
  const opts = f.options.split("\n").map((o) => o.trim()).filter(Boolean);
  const id = (k: string) => `draft-${d.id}-${k}`;
  return (
    <form className="stack" aria-label={`Edit draft ${d.position}`} onSubmit={(e) => (e.preventDefault(), save.mutate(f))}>
      <Field id={id("stem")} label="Stem" error={errs.question_text}>
        <textarea required rows={3} value={f.question_text} onChange={(e) => setF({ ...f, question_text: e.target.value })} />
      </Field>
      <Field id={id("type")} label="Type" error={errs.question_type}>
        <select value={f.question_type} onChange={(e) => setF({ ...f, question_type: e.target.value as Draft["question_type"] })}>
          <option value="mcq">Multiple choice</option>
          <option value="fill_in">Fill in</option>
        </select>
      </Field>
      {f.question_type === "mcq" && (
        <Field id={id("options")} label="Options (one a line)" error={errs.options}>
          <textarea rows={5} value={f.options} onChange={(e) => setF({ ...f, options: e.target.value })} />
        </Field>
      )}
      {f.question_type === "mcq" ? (
        <Field id={id("answer")} label="Correct answer" error={errs.correct_answer}>
          <select value={f.correct_answer} onChange={(e) => setF({ ...f, correct_answer: e.target.value })}>
            <option value="">None marked</option>
            {f.correct_answer && !opts.includes(f.correct_answer) && <option>{f.correct_answer}</option>}
            {opts.map((o, i) => (
              <option key={i}>{o}</option>
            ))}
          </select>
        </Field>
      ) : (
        <Field id={id("answer")} label="Accepted answers (separated by |)" error={errs.correct_answer}>
          <input value={f.correct_answer} onChange={(e) => setF({ ...f, correct_answer: e.target.value })} />
        </Field>
      )}
      <Field id={id("explanation")} label="Explanation" error={errs.explanation}>
        <textarea rows={3} value={f.explanation} onChange={(e) => setF({ ...f, explanation: e.target.value })} />
      </Field>
      <Submit m={save} label="Save draft" other={{ label: "Cancel", onClick: onClose }} />
    </form>
  );
}
