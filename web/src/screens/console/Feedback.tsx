// The feedback queue: reports learners sent, resolved or dismissed with a
// note the reporter reads.
import { useState } from "react";
import { useFeedbackQueue, useResolve } from "../../api/feedback";
import { Failed, Field, Status, when } from "../../ui/ui";

export function Feedback() {
  const [status, setStatus] = useState<"open" | "resolved" | "dismissed">("open");
  const res = useFeedbackQueue(status);
  const [notes, setNotes] = useState<Record<number, string>>({});
  const close = useResolve();
  return (
    <section>
      <h1>Feedback</h1>
      <Field id="feedback-status" label="Reports">
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
          <option value="dismissed">Dismissed</option>
        </select>
      </Field>
      <Status q={res} what="the reports" />
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
                <Field id={`note-${f.id}`} label="Note to the reporter">
                  <input value={notes[f.id] ?? ""} onChange={(e) => setNotes({ ...notes, [f.id]: e.target.value })} />
                </Field>
                <button className="primary" disabled={close.isPending} onClick={() => close.mutate({ id: f.id, to: "resolved", note: notes[f.id] ?? "" })}>
                  Resolve
                </button>
                <button disabled={close.isPending} onClick={() => close.mutate({ id: f.id, to: "dismissed", note: notes[f.id] ?? "" })}>
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
