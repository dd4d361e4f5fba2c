// What a learner can do about one question after answering it: report a
// problem to the moderators, or ask the tutor about it.
import { useState } from "react";
import { reportTypes, useAskTutor, useReport, type ChatMessage, type ReportType } from "../../api/feedback";
import { fieldErrors } from "../../lib/edit";
import { Failed, Field, Submit } from "../../ui/ui";

export function QuestionTools({ questionId, attemptId, n }: { questionId: number; attemptId?: number; n: number }) {
  const [open, setOpen] = useState<"report" | "tutor" | null>(null);
  return (
    <div className="q-tools">
      <p className="actions">
        <button aria-expanded={open === "report"} onClick={() => setOpen(open === "report" ? null : "report")} aria-label={`Report a problem with question ${n}`}>
          Report a problem
        </button>
        <button aria-expanded={open === "tutor"} onClick={() => setOpen(open === "tutor" ? null : "tutor")} aria-label={`Ask the tutor about question ${n}`}>
          Ask the tutor
        </button>
      </p>
      {open === "report" && <Report questionId={questionId} n={n} onDone={() => setOpen(null)} />}
      {open === "tutor" && <Tutor questionId={questionId} attemptId={attemptId} n={n} />}
    </div>
  );
}

function Report({ questionId, n, onDone }: { questionId: number; n: number; onDone: () => void }) {
  const [type, setType] = useState<ReportType>("wrong_answer");
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);
  const send = useReport(() => setSent(true));
  const errs = fieldErrors(send.error);
  if (sent)
    return (
      <p role="status" className="panel">
        Thank you: a moderator will look at question {n}. <button onClick={onDone}>Close</button>
      </p>
    );
  return (
    <form className="panel" aria-label={`Report a problem with question ${n}`} onSubmit={(e) => (e.preventDefault(), send.mutate({ target_id: questionId, type, text }))}>
      <div className="row">
        <Field id={`report-type-${questionId}`} label="What is wrong" error={errs.type}>
          <select value={type} onChange={(e) => setType(e.target.value as ReportType)}>
            {reportTypes.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Field id={`report-text-${questionId}`} label="Details for the moderators" error={errs.text}>
        <textarea rows={3} maxLength={4000} required value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <Submit m={send} label="Send report" other={{ label: "Cancel", onClick: onDone }} />
    </form>
  );
}

function Tutor({ questionId, attemptId, n }: { questionId: number; attemptId?: number; n: number }) {
  const [talk, setTalk] = useState<ChatMessage[]>([]);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [draft, setDraft] = useState("");
  const ask = useAskTutor((reply, asked) => {
    setTalk([...asked, { role: "assistant", content: reply.reply }]);
    setSuggestions(reply.suggestions ?? []);
    setDraft("");
  });
  const send = (text: string) => ask.mutate({ question: questionId, attempt: attemptId, messages: [...talk, { role: "user", content: text }] });
  const id = `tutor-${questionId}`;
  return (
    <section className="panel tutor" aria-label={`The tutor on question ${n}`}>
      <ol className="talk" aria-live="polite">
        {talk.map((m, i) => (
          <li key={i} className={m.role}>
            <span className="sr-only">{m.role === "user" ? "You" : "Tutor"}: </span>
            <span className="pre">{m.content}</span>
          </li>
        ))}
      </ol>
      {ask.isPending && <p aria-live="polite">The tutor is thinking…</p>}
      {suggestions.length > 0 && !ask.isPending && (
        <p className="actions" role="group" aria-label="Follow-up questions">
          {suggestions.map((s) => (
            <button key={s} onClick={() => send(s)}>
              {s}
            </button>
          ))}
        </p>
      )}
      <form onSubmit={(e) => (e.preventDefault(), draft.trim() && send(draft.trim()))}>
        <Field id={id} label={talk.length ? "Ask a follow-up" : `Your question about question ${n}`}>
          <textarea rows={2} maxLength={4000} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </Field>
        <button type="submit" className="primary" disabled={ask.isPending || !draft.trim()}>
          Ask
        </button>
      </form>
      <Failed m={ask} />
    </section>
  );
}
