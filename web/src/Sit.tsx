import { useCallback, useEffect, useRef, useState } from "react";
import { api, must } from "./api/client";
import { navigate } from "./router";
import { LabTable } from "./Labs";
import { clock, deviceID, keyAction, saveLabel, type SaveState } from "./quiz";

type SitQuestion = { id: number; question_text: string; options?: string[] | null; correct_answer?: string | null; explanation?: string | null };
type SitQuiz = { title: string; mode: "timed" | "learning"; questions: SitQuestion[] };

type Loaded = {
  attempt: { id: number; deadline_at?: string | null; time_limit_seconds?: number | null };
  quiz: SitQuiz;
};

/** loadQuiz reads the questions to sit. A saved test opens to the learner
 * who owns it; one they do not own (a paper drawn for someone else's plan)
 * is not a published quiz and its detail is refused, so the attempt's own
 * questions as sat stand in (answers hidden while a timed attempt runs, as
 * the quiz detail hides them). */
async function loadQuiz(id: number, study: boolean, attemptId: number): Promise<SitQuiz> {
  const r = await api.GET("/api/v1/quizzes/{quiz_id}", { params: { path: { quiz_id: id }, query: { study } } });
  if (r.response.status !== 404) {
    const z = must(r);
    return { title: z.title, mode: z.mode, questions: z.questions ?? [] };
  }
  const a = must(await api.GET("/api/v1/attempts/{attempt_id}", { params: { path: { attempt_id: attemptId } } }));
  const qs = [...(a.answers ?? [])].sort((x, y) => x.position - y.position);
  return {
    title: a.quiz_title,
    mode: a.mode === "timed" ? "timed" : "learning",
    questions: qs.map((q) => ({ id: q.question_id, question_text: q.question_text, options: q.options, correct_answer: q.correct_answer, explanation: q.explanation })),
  };
}

const device = deviceID(sessionStorage);

export function Sit({ quizId }: { quizId: number }) {
  const study = new URLSearchParams(location.search).get("study") === "1";
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState<number | null>(null); // seconds until this device may take over
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [idx, setIdx] = useState(0);
  const [flags, setFlags] = useState<Set<number>>(new Set());
  const [save, setSave] = useState<SaveState>("idle");
  const [now, setNow] = useState(Date.now());
  const [submitting, setSubmitting] = useState(false);
  const [labs, setLabs] = useState(false);
  const latest = useRef({ answers, idx });
  const retry = useRef<number | undefined>(undefined);

  // Start (or resume) the attempt, read the questions, then any saved progress.
  useEffect(() => {
    let gone = false;
    (async () => {
      const attempt = must(await api.POST("/api/v1/attempts/start", { params: { query: { quiz_id: quizId } } }));
      const quiz = await loadQuiz(quizId, study, attempt.id);
      const prog = await api.GET("/api/v1/attempts/progress", {
        params: { query: { quiz_id: quizId }, header: { "x-quiz-session": device } },
      });
      if (gone) return;
      if (prog.response.status === 409) {
        setLocked(Number(prog.response.headers.get("Retry-After") ?? "30"));
        return;
      }
      const saved = must(prog);
      if (saved && saved.attempt_id === attempt.id) {
        latest.current = {
          answers: saved.answers ?? {},
          idx: Math.min(saved.current_idx ?? 0, Math.max(0, (quiz.questions ?? []).length - 1)),
        };
        setAnswers(latest.current.answers);
        setIdx(latest.current.idx);
        setSave("saved");
      }
      setLocked(null);
      setData({ attempt, quiz });
    })().catch((e: Error) => !gone && setError(e.message));
    return () => void (gone = true);
  }, [quizId, study, locked === null]); // eslint-disable-line react-hooks/exhaustive-deps

  // Another device holds the progress: count down, then try again.
  useEffect(() => {
    if (locked === null) return;
    const t = setTimeout(() => setLocked(locked <= 1 ? null : locked - 1), 1000);
    return () => clearTimeout(t);
  }, [locked]);

  const persist = useCallback(async () => {
    if (!data) return;
    window.clearTimeout(retry.current);
    const { answers, idx } = latest.current;
    setSave("saving");
    try {
      const res = await api.POST("/api/v1/attempts/progress", {
        params: { header: { "x-quiz-session": device } },
        body: { quiz_id: quizId, attempt_id: data.attempt.id, answers, current_idx: idx, mode: study ? "study" : data.quiz.mode, revision: Date.now() },
      });
      if (res.response.status === 409) {
        setLocked(Number(res.response.headers.get("Retry-After") ?? "30"));
        setData(null);
        return;
      }
      must(res);
      setSave("saved");
    } catch {
      // The network dropped: keep the answers here and try again.
      setSave("offline");
      retry.current = window.setTimeout(persist, 3000);
    }
  }, [data, quizId, study]);

  const change = (next: { answers?: Record<string, string>; idx?: number }) => {
    latest.current = { answers: next.answers ?? latest.current.answers, idx: next.idx ?? latest.current.idx };
    if (next.answers) setAnswers(next.answers);
    if (next.idx !== undefined) setIdx(next.idx);
    void persist();
  };

  const submit = useCallback(async () => {
    if (!data || submitting) return;
    setSubmitting(true);
    try {
      must(await api.POST("/api/v1/attempts/{attempt_id}/submit", { params: { path: { attempt_id: data.attempt.id } }, body: { answers: latest.current.answers } }));
      navigate(`/attempts/${data.attempt.id}`);
    } catch (e) {
      setError((e as Error).message);
      setSubmitting(false);
    }
  }, [data, submitting]);

  // The server's deadline drives the clock; at zero the attempt is submitted.
  const deadline = !study && data?.attempt.deadline_at ? Date.parse(data.attempt.deadline_at) : null;
  useEffect(() => {
    if (deadline === null) return;
    const t = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(t);
  }, [deadline]);
  const left = deadline === null ? null : (deadline - now) / 1000;
  useEffect(() => {
    if (left !== null && left <= 0) void submit();
  }, [left !== null && left <= 0]); // eslint-disable-line react-hooks/exhaustive-deps

  const questions = data?.quiz.questions ?? [];
  const q = questions[idx];

  const choose = (option: string) => q && change({ answers: { ...latest.current.answers, [String(q.id)]: option } });
  const move = (to: number) => change({ idx: Math.max(0, Math.min(questions.length - 1, to)) });
  const flag = () =>
    setFlags((f) => {
      const n = new Set(f);
      if (n.has(idx)) n.delete(idx);
      else n.add(idx);
      return n;
    });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!q || e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement).matches("input, textarea, select")) return;
      const a = keyAction(e.key, (q.options ?? []).length);
      if (!a) return;
      e.preventDefault();
      if (a.kind === "answer") choose((q.options ?? [])[a.index]);
      else if (a.kind === "move") move(idx + a.by);
      else flag();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  if (error) return <p role="alert">Could not continue: {error}</p>;
  if (locked !== null)
    return (
      <section>
        <h1>Open on another device</h1>
        <p role="status">
          This attempt is being answered on another device. You can take it over here in {locked} s (nothing is lost: the other device's answers come with it).
        </p>
      </section>
    );
  if (!data) return <p aria-live="polite">Starting…</p>;
  if (!q) return <p>This quiz has no questions.</p>;

  const picked = answers[String(q.id)];
  const showAnswer = study && picked !== undefined && q.correct_answer != null;
  const answered = questions.filter((x) => answers[String(x.id)] !== undefined).length;

  return (
    <section className="sit">
      <header className="sit-bar">
        <h1>{data.quiz.title}</h1>
        {left !== null && (
          <p className={left < 60 ? "timer low" : "timer"} role="timer" aria-label="Time left">
            {clock(left)}
          </p>
        )}
        {study && <p className="badge">Study mode</p>}
        <p className={`saved ${save}`} role="status" data-testid="save-state">
          {saveLabel[save]}
        </p>
        <button aria-expanded={labs} aria-controls="lab-panel" onClick={() => setLabs(!labs)}>
          Lab values
        </button>
      </header>
      <div className={labs ? "sit-body with-labs" : "sit-body"}>
        <nav className="grid" aria-label="Questions">
          {questions.map((x, i) => (
            <button
              key={x.id}
              className={[answers[String(x.id)] !== undefined ? "done" : "", flags.has(i) ? "flagged" : "", i === idx ? "here" : ""].join(" ")}
              aria-current={i === idx ? "step" : undefined}
              aria-label={`Question ${i + 1}${answers[String(x.id)] !== undefined ? ", answered" : ""}${flags.has(i) ? ", flagged" : ""}`}
              onClick={() => move(i)}
            >
              {i + 1}
            </button>
          ))}
        </nav>
        <article className="question">
          <h2>
            Question {idx + 1} of {questions.length} {flags.has(idx) && <span className="badge">flagged</span>}
          </h2>
          <p className="stem">{q.question_text}</p>
          <fieldset>
            <legend className="sr-only">Answer</legend>
            {(q.options ?? []).map((o, i) => {
              const verdict = showAnswer ? (o === q.correct_answer ? "right" : o === picked ? "wrong" : "") : "";
              return (
                <label key={i} className={`option ${picked === o ? "picked" : ""} ${verdict}`}>
                  <input type="radio" name={`q${q.id}`} checked={picked === o} onChange={() => choose(o)} />
                  <kbd>{String.fromCharCode(65 + i)}</kbd> {o}
                </label>
              );
            })}
          </fieldset>
          {showAnswer && (
            <div className="explain" role="note">
              <p>
                <strong>{picked === q.correct_answer ? "Correct." : `The answer is ${q.correct_answer}.`}</strong>
              </p>
              {q.explanation && <p>{q.explanation}</p>}
            </div>
          )}
          <p className="actions">
            <button onClick={() => move(idx - 1)} disabled={idx === 0}>
              Previous
            </button>
            <button onClick={flag} aria-pressed={flags.has(idx)}>
              {flags.has(idx) ? "Unflag" : "Flag"}
            </button>
            <button onClick={() => move(idx + 1)} disabled={idx === questions.length - 1}>
              Next
            </button>
            <button className="primary" onClick={submit} disabled={submitting}>
              Submit ({answered}/{questions.length} answered)
            </button>
          </p>
          <p className="muted keys">Keys: A–I or 1–9 answer · ← → move · F flag</p>
        </article>
        {labs && (
          <aside id="lab-panel" className="lab-panel" aria-label="Lab values">
            <h2>Lab values</h2>
            <LabTable compact />
          </aside>
        )}
      </div>
    </section>
  );
}
