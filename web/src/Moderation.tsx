import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link } from "./router";
import { Failed, Status, when } from "./ui";

/** Drafts lists the open extraction batches. */
export function Batches() {
  const [status, setStatus] = useState<"open" | "closed">("open");
  const res = useQuery({
    queryKey: ["batches", status],
    queryFn: async () => must(await api.GET("/api/v1/drafts/batches", { params: { query: { status, limit: 100 } } })),
  });
  return (
    <section>
      <h1>Drafts to review</h1>
      <div className="field">
        <label htmlFor="batch-status">Batches</label>
        <select id="batch-status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="open">Open</option>
          <option value="closed">Closed</option>
        </select>
      </div>
      <Status q={res} />
      {res.data && res.data.length === 0 && <p>No {status} batch.</p>}
      {!!res.data?.length && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Draft batches"><table>
          <thead>
            <tr><th>Batch</th><th>Pages</th><th>Extractor</th><th>Pending</th><th>Accepted</th><th>Rejected</th><th>Created</th></tr>
          </thead>
          <tbody>
            {res.data.map((b) => (
              <tr key={b.id}>
                <td><Link href={`/drafts/${b.id}`}>Batch {b.id}</Link></td>
                <td>{b.start_page}–{b.end_page}</td>
                <td>{b.extractor}</td>
                <td>{b.counts.pending}</td>
                <td>{b.counts.accepted}</td>
                <td>{b.counts.rejected}</td>
                <td>{when(b.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
    </section>
  );
}

/** Batch reviews one batch's drafts: pick some, accept them into the bank
 * (all or nothing: a draft not ready refuses the lot) or reject them. */
export function Batch({ id }: { id: number }) {
  const qc = useQueryClient();
  const batch = useQuery({
    queryKey: ["batch", id],
    queryFn: async () => must(await api.GET("/api/v1/drafts/batches/{batch_id}", { params: { path: { batch_id: id } } })),
  });
  const drafts = useQuery({
    queryKey: ["batch-drafts", id],
    queryFn: async () => must(await api.GET("/api/v1/drafts/batches/{batch_id}/drafts", { params: { path: { batch_id: id }, query: { limit: 200 } } })),
  });
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => {
    setPicked(new Set());
    qc.invalidateQueries({ queryKey: ["batch", id] });
    qc.invalidateQueries({ queryKey: ["batch-drafts", id] });
    qc.invalidateQueries({ queryKey: ["batches"] });
  };
  const accept = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/drafts/accept", { body: { draft_ids: [...picked] } })),
    onSuccess: (r) => (setDone(`Accepted ${r.accepted?.length ?? 0} into the bank.`), refresh()),
  });
  const reject = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/drafts/reject", { body: { draft_ids: [...picked] } })),
    onSuccess: (r) => (setDone(`Rejected ${r.rejected?.length ?? 0}.`), refresh()),
  });
  const cats = useQuery({ queryKey: ["question-categories"], queryFn: async () => must(await api.GET("/api/v1/question-categories/")) });
  const fileInto = useMutation({
    mutationFn: async (category_id: number) => must(await api.PATCH("/api/v1/drafts/batches/{batch_id}", { params: { path: { batch_id: id } }, body: { category_id } })),
    onSuccess: (b) => qc.setQueryData(["batch", id], b),
  });
  const reopen = useMutation({
    mutationFn: async (draft: number) => must(await api.POST("/api/v1/drafts/{id}/reopen", { params: { path: { id: draft } } })),
    onSuccess: () => (setDone("Reopened."), refresh()),
  });
  const toggle = (d: number) =>
    setPicked((s) => {
      const n = new Set(s);
      if (n.has(d)) n.delete(d);
      else n.add(d);
      return n;
    });
  const pending = (drafts.data ?? []).filter((d) => d.status === "pending");
  const busy = accept.isPending || reject.isPending || reopen.isPending;
  return (
    <section>
      <p className="muted">
        <Link href="/drafts">Drafts</Link> ›
      </p>
      <h1>Batch {id}</h1>
      <Status q={batch} />
      {batch.data && (
        <p className="muted">
          Pages {batch.data.start_page}–{batch.data.end_page} · {batch.data.extractor} · {batch.data.counts.pending} pending, {batch.data.counts.accepted} accepted,{" "}
          {batch.data.counts.rejected} rejected · {batch.data.status}
        </p>
      )}
      {batch.data && (
        <div className="field">
          <label htmlFor="batch-topic">Files into topic</label>
          <select id="batch-topic" value={batch.data.category_id ?? ""} disabled={fileInto.isPending} onChange={(e) => fileInto.mutate(Number(e.target.value))}>
            {batch.data.category_id == null && <option value="">Choose a category (needed to accept)</option>}
            {(cats.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <Failed m={fileInto} />
      <div className="actions sticky" role="group" aria-label="Selected drafts">
        <button onClick={() => setPicked(new Set(pending.filter((d) => d.ready).map((d) => d.id)))} disabled={busy}>
          Select every ready draft
        </button>
        <button className="primary" onClick={() => accept.mutate()} disabled={busy || picked.size === 0}>
          Accept {picked.size || ""}
        </button>
        <button onClick={() => reject.mutate()} disabled={busy || picked.size === 0}>
          Reject {picked.size || ""}
        </button>
      </div>
      <p aria-live="polite" data-testid="review-result">{done}</p>
      <Failed m={accept} />
      <Failed m={reject} />
      <Failed m={reopen} />
      <Status q={drafts} />
      <ol className="drafts">
        {(drafts.data ?? []).map((d) => (
          <li key={d.id} className={`draft ${d.status}`}>
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
              {d.status === "rejected" && (
                <button onClick={() => reopen.mutate(d.id)} disabled={busy}>
                  Reopen
                </button>
              )}
            </div>
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
            {!!d.problems?.length && (
              <ul className="problems" aria-label="Why it is not ready">
                {d.problems.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
            {d.question_id && (
              <p className="muted">In the bank as question {d.question_id}.</p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** FeedbackQueue is the reports learners sent, resolved or dismissed with a note. */
export function FeedbackQueue() {
  const qc = useQueryClient();
  const [status, setStatus] = useState<"open" | "resolved" | "dismissed">("open");
  const res = useQuery({
    queryKey: ["feedback", status],
    queryFn: async () => must(await api.GET("/api/v1/feedback", { params: { query: { status, limit: 100 } } })),
  });
  const [notes, setNotes] = useState<Record<number, string>>({});
  const close = useMutation({
    mutationFn: async ({ id, to }: { id: number; to: "resolved" | "dismissed" }) =>
      must(await api.PUT("/api/v1/feedback/{report_id}/resolve", { params: { path: { report_id: id } }, body: { status: to, note: notes[id] ?? "" } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["feedback"] }),
  });
  return (
    <section>
      <h1>Feedback</h1>
      <div className="field">
        <label htmlFor="feedback-status">Reports</label>
        <select id="feedback-status" value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
          <option value="dismissed">Dismissed</option>
        </select>
      </div>
      <Status q={res} />
      <Failed m={close} />
      {res.data && res.data.length === 0 && <p>No {status} report.</p>}
      <ol className="drafts">
        {(res.data ?? []).map((f) => (
          <li key={f.id} className="draft">
            <div className="draft-head">
              <strong>{f.title || `${f.kind} ${f.target_id}`}</strong>
              <span className="badge">{f.type.replace("_", " ")}</span>
              <span className="muted">
                {f.kind} {f.target_id} · {when(f.created_at)}
              </span>
            </div>
            <p>{f.text || <span className="muted">No text.</span>}</p>
            {f.status === "open" ? (
              <form className="row" onSubmit={(e) => e.preventDefault()}>
                <label className="field grow">
                  Note to the reporter
                  <input value={notes[f.id] ?? ""} onChange={(e) => setNotes({ ...notes, [f.id]: e.target.value })} />
                </label>
                <button className="primary" disabled={close.isPending} onClick={() => close.mutate({ id: f.id, to: "resolved" })}>
                  Resolve
                </button>
                <button disabled={close.isPending} onClick={() => close.mutate({ id: f.id, to: "dismissed" })}>
                  Dismiss
                </button>
              </form>
            ) : (
              <p className="muted">
                {f.status} {when(f.resolved_at)}
                {f.resolution_note && `: ${f.resolution_note}`}
              </p>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
