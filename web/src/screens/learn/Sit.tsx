// The sitting screen: start or resume the attempt, answer with the mouse
// or the keyboard, every change saved at once, the server's clock, flags,
// the lab values at hand, and before submitting the questions still
// unanswered or flagged. Flags are saved with the answers, so they follow
// the learner to another device. A submission made offline waits behind the
// saves and goes when the network is back, then the result opens. In study mode the answer side shows after each
// answer. The tools of the best question banks sit beside the question:
// strike an option through, highlight the stem, a timer per question, the
// note on it, a calculator, text size and contrast; all by keyboard.
import { useCallback, useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import { attemptDone, attemptStarted, type AnswerDetail } from "../../api/attempts";
import { navigate } from "../../router";
import { LabTable } from "./Labs";
import { AnswerSide, Options } from "./AnswerSide";
import { clock, deviceID, keyAction, leftToCheck, saveLabel, type SaveState } from "../../lib/quiz";
import { plural } from "../../ui/ui";
import { Markdown } from "../../ui/Markdown";
import { addMark, offsetsOf } from "../../lib/highlight";
import { prefs, sitMemory, toggle, type Prefs, type SitMemory } from "../../lib/sittools";
import { Calculator, QuestionNote, Reading } from "./SitTools";
import { enqueue, flush, isOffline, latestSave, onOutbox, pending, submissionWaits, waitingAnswers } from "../../lib/outbox";
import { sendEntry } from "../../api/outbox";
import { keepShell } from "../../lib/offline";

type Loaded = {
  attempt: { id: number; mode: string; deadline_at?: string | null };
  title: string;
  questions: AnswerDetail[];
};

const device = deviceID(sessionStorage);

type Started = Loaded["attempt"] & { resumed?: boolean };

/** load starts (or resumes) the attempt and reads its questions as sat:
 * the attempt's own detail, which in study mode carries the answer side.
 * Offline, the attempt this tab last started stands in for the start and
 * the service worker answers the detail it kept. */
async function load(quizId: number, study: boolean) {
  const kept = `rounds.started.${quizId}.${study ? "study" : "timed"}`;
  let attempt: Started;
  try {
    attempt = must(await api.POST("/api/v1/attempts/start", { params: { query: { quiz_id: quizId, mode: study ? "learning" : undefined } } }));
    sessionStorage.setItem(kept, JSON.stringify({ id: attempt.id, mode: attempt.mode, deadline_at: attempt.deadline_at }));
  } catch (e) {
    const was = sessionStorage.getItem(kept);
    if (!isOffline(e) || !was) throw e;
    attempt = { ...(JSON.parse(was) as Started), resumed: true };
  }
  const detail = must(await api.GET("/api/v1/attempts/{attempt_id}", { params: { path: { attempt_id: attempt.id } } }));
  const questions = [...(detail.answers ?? [])].sort((x, y) => x.position - y.position);
  return { attempt, title: detail.quiz_title, questions };
}

export function Sit({ quizId }: { quizId: number }) {
  const qc = useQueryClient();
  const study = new URLSearchParams(location.search).get("study") === "1";
  const [data, setData] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [locked, setLocked] = useState<number | null>(null); // seconds until this device may take over
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [idx, setIdx] = useState(0);
  const [flags, setFlags] = useState<Set<number>>(new Set());
  const [save, setSave] = useState<SaveState>("idle");
  const [waiting, setWaiting] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [submitting, setSubmitting] = useState(false);
  const [queued, setQueued] = useState(false); // the submission waits in the outbox
  const [checking, setChecking] = useState(false);
  const [labs, setLabs] = useState(false);
  const [panel, setPanel] = useState<"notes" | "calculator" | null>(null);
  const [mem, setMem] = useState<SitMemory>({ struck: {}, marks: {}, seconds: {} });
  const [look, setLook] = useState<Prefs>(() => prefs.read(localStorage));
  const latest = useRef({ answers, idx, flags });
  const retry = useRef<number | undefined>(undefined);
  const submissionQueued = useRef(false);

  // Start (or resume) the attempt, read the questions, then any saved progress.
  useEffect(() => {
    let gone = false;
    (async () => {
      const loaded = await load(quizId, study);
      // A new attempt is one more in progress; a resumed one changes nothing.
      if (!loaded.attempt.resumed) void Promise.all(attemptStarted.map((k) => qc.invalidateQueries({ queryKey: k })));
      const prog = await api
        .GET("/api/v1/attempts/progress", {
          params: { query: { quiz_id: quizId, attempt_id: loaded.attempt.id }, header: { "x-quiz-session": device } },
        })
        .catch((e) => {
          if (isOffline(e)) return null; // nothing kept: the outbox may hold it
          throw e;
        });
      if (gone) return;
      if (prog?.response.status === 409) {
        setLocked(Number(prog.response.headers.get("Retry-After") ?? "30"));
        return;
      }
      const saved = prog ? must(prog) : null;
      // Saves still waiting in the outbox are newer than anything the server has.
      const entries = await pending();
      const waiting = latestSave(entries, loaded.attempt.id);
      submissionQueued.current = submissionWaits(entries, loaded.attempt.id);
      setQueued(submissionQueued.current);
      const from = waiting ? waiting.body : saved && saved.attempt_id === loaded.attempt.id ? saved : null;
      if (from) {
        latest.current = {
          answers: from.answers ?? {},
          idx: Math.min(from.current_idx ?? 0, Math.max(0, loaded.questions.length - 1)),
          flags: new Set(from.flagged ?? []),
        };
        setAnswers(latest.current.answers);
        setIdx(latest.current.idx);
        setFlags(latest.current.flags);
        setSave("saved");
      }
      if (gone) return;
      keepShell();
      setMem(sitMemory.read(sessionStorage, loaded.attempt.id));
      setLocked(null);
      setData(loaded);
    })().catch((e: Error) => !gone && setError(e.message));
    return () => void (gone = true);
  }, [quizId, study, locked === null]); // eslint-disable-line react-hooks/exhaustive-deps

  // Another device holds the progress: count down, then try again.
  useEffect(() => {
    if (locked === null) return;
    const t = setTimeout(() => setLocked(locked <= 1 ? null : locked - 1), 1000);
    return () => clearTimeout(t);
  }, [locked]);

  // The attempt is submitted: what this tab kept for it goes, the result opens.
  const finish = useCallback(async () => {
    if (!data) return;
    sitMemory.forget(sessionStorage, data.attempt.id);
    await Promise.all(attemptDone(data.attempt.id).map((k) => qc.invalidateQueries({ queryKey: k })));
    navigate(`/attempts/${data.attempt.id}`);
  }, [data, qc]);

  // Every save goes through the outbox and is sent in order: online at
  // once, offline when the network is back (retried every 3 s and on the
  // browser's "online"). A submission queued offline is the last entry:
  // once everything is sent, the attempt is submitted.
  const send = useCallback(async () => {
    if (!data) return;
    window.clearTimeout(retry.current);
    const out = await flush(sendEntry).catch(() => ({ kind: "offline" as const }));
    if (out.kind === "locked") {
      setLocked(out.retryAfter);
      setData(null);
      return;
    }
    if (out.kind === "sent" && submissionQueued.current) {
      submissionQueued.current = false;
      await finish();
      return;
    }
    const n = waitingAnswers(await pending(), data.attempt.id);
    setWaiting(n);
    if (out.kind === "sent") setSave("saved");
    else {
      setSave("offline");
      retry.current = window.setTimeout(send, 3000);
    }
  }, [data]);

  useEffect(() => {
    if (!data) return;
    void send();
    const again = () => void send();
    window.addEventListener("online", again);
    const off = onOutbox(() => void pending().then((p) => setWaiting(waitingAnswers(p, data.attempt.id))));
    return () => (window.removeEventListener("online", again), off(), window.clearTimeout(retry.current));
  }, [data, send]);

  const persist = async (answered?: string) => {
    if (!data) return;
    const { answers, idx, flags } = latest.current;
    setSave((s) => (s === "offline" ? s : "saving"));
    await enqueue({
      kind: "progress",
      attemptId: data.attempt.id,
      device,
      answered,
      body: {
        quiz_id: quizId,
        attempt_id: data.attempt.id,
        answers,
        flagged: [...flags].sort((x, y) => x - y),
        current_idx: idx,
        mode: study ? "study" : data.attempt.mode,
        revision: Date.now(),
      },
    });
    await send();
  };

  const change = (next: { answers?: Record<string, string>; idx?: number; flags?: Set<number> }, answered?: string) => {
    latest.current = { answers: next.answers ?? latest.current.answers, idx: next.idx ?? latest.current.idx, flags: next.flags ?? latest.current.flags };
    if (next.answers) setAnswers(next.answers);
    if (next.idx !== undefined) setIdx(next.idx);
    if (next.flags) setFlags(next.flags);
    void persist(answered);
  };

  // Submitting sends the waiting saves first, so it never overtakes them.
  // Without a network (then or now) it joins the outbox behind them.
  const submit = useCallback(async () => {
    if (!data || submitting || submissionQueued.current) return;
    setSubmitting(true);
    const body = { answers: latest.current.answers, flagged: [...latest.current.flags] };
    try {
      const saves = await flush(sendEntry);
      if (saves.kind === "sent") {
        must(await api.POST("/api/v1/attempts/{attempt_id}/submit", { params: { path: { attempt_id: data.attempt.id } }, body }));
        await finish();
        return;
      }
    } catch (e) {
      if (!isOffline(e)) {
        setError((e as Error).message);
        setSubmitting(false);
        return;
      }
    }
    submissionQueued.current = true;
    await enqueue({ kind: "submit", attemptId: data.attempt.id, body });
    setQueued(true);
    await send();
  }, [data, submitting, finish, send]);

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

  const questions = data?.questions ?? [];
  const q = questions[idx];

  // What this tab keeps for the attempt (strikes, highlights, times).
  const remember = (f: (m: SitMemory) => SitMemory) => {
    if (!data) return;
    setMem((m) => {
      const next = f(m);
      sitMemory.write(sessionStorage, data.attempt.id, next);
      return next;
    });
  };
  // The question on screen gathers a second each second the page is seen.
  const qid = q ? String(q.question_id) : null;
  useEffect(() => {
    if (!qid || checking) return;
    const t = setInterval(() => {
      if (document.visibilityState === "visible") remember((m) => ({ ...m, seconds: { ...m.seconds, [qid]: (m.seconds[qid] ?? 0) + 1 } }));
    }, 1000);
    return () => clearInterval(t);
  }, [qid, checking, data]); // eslint-disable-line react-hooks/exhaustive-deps
  const strike = (i: number) => qid && remember((m) => ({ ...m, struck: { ...m.struck, [qid]: toggle(m.struck[qid], i) } }));
  const highlight = () => {
    const el = document.getElementById("q-stem");
    const sel = window.getSelection();
    const m = el && sel && sel.rangeCount ? offsetsOf(el, sel.getRangeAt(0)) : null;
    if (!qid || !m) return;
    sel?.removeAllRanges();
    remember((x) => ({ ...x, marks: { ...x.marks, [qid]: addMark(x.marks[qid] ?? [], m) } }));
  };
  const clearMarks = () => qid && remember((x) => ({ ...x, marks: { ...x.marks, [qid]: [] } }));
  const setLookTo = (p: Prefs) => {
    const next = { size: Math.max(0, Math.min(3, p.size)), contrast: p.contrast };
    prefs.write(localStorage, next);
    setLook(next);
  };
  const tool = (t: "highlight" | "notes" | "calculator" | "bigger" | "smaller" | "labs") => {
    if (t === "highlight") highlight();
    else if (t === "notes" || t === "calculator") setPanel(panel === t ? null : t);
    else if (t === "labs") setLabs(!labs);
    else setLookTo({ ...look, size: look.size + (t === "bigger" ? 1 : -1) });
  };

  const choose = (option: string) => q && change({ answers: { ...latest.current.answers, [String(q.question_id)]: option } }, String(q.question_id));
  const move = (to: number) => (setChecking(false), change({ idx: Math.max(0, Math.min(questions.length - 1, to)) }));
  // A flag is saved like an answer: it follows the learner to another device.
  const flag = () => {
    if (!q || !data) return;
    const n = new Set(latest.current.flags);
    if (n.has(q.question_id)) n.delete(q.question_id);
    else n.add(q.question_id);
    change({ flags: n });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!q || checking || e.ctrlKey || e.metaKey || e.altKey || (e.target as HTMLElement).matches("input, textarea, select")) return;
      const a = keyAction(e.key, (q.options ?? []).length, e.shiftKey);
      if (!a) return;
      e.preventDefault();
      if (a.kind === "answer") {
        // In study mode an answer, once its explanation shows, stays.
        if (!study || latest.current.answers[String(q.question_id)] === undefined) choose((q.options ?? [])[a.index]);
      } else if (a.kind === "move") move(idx + a.by);
      else if (a.kind === "strike") strike(a.index);
      else if (a.kind === "tool") tool(a.tool);
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
  if (queued)
    return (
      <section>
        <h1>{data.title}</h1>
        <p role="status" className="saved save-offline" data-testid="submit-state">
          Offline — your submission is waiting{waiting ? ` with ${plural(waiting, "answer")}` : ""}. It is sent when the network is back, and your result opens.
        </p>
        <p className="actions">
          <button className="primary" onClick={() => void send()}>
            Try again now
          </button>
        </p>
      </section>
    );
  if (!q) return <p>This quiz has no questions.</p>;

  const picked = answers[String(q.question_id)];
  const showAnswer = study && picked !== undefined && q.correct_answer != null;
  const ids = questions.map((x) => x.question_id);
  const check = leftToCheck(ids, answers, flags);
  const answered = questions.length - check.unanswered.length;
  const last = idx === questions.length - 1;
  // Submitting with questions open or flagged asks first.
  const askFirst = () => (check.unanswered.length || check.flagged.length ? setChecking(true) : void submit());
  const struck = mem.struck[String(q.question_id)] ?? [];
  const spent = Object.values(mem.seconds).reduce((a, b) => a + b, 0);

  return (
    <section className={`sit size-${look.size}${look.contrast ? " contrast" : ""}`}>
      <header className="sit-bar">
        <h1>{data.title}</h1>
        {left !== null && (
          <p className={left < 60 ? "timer low" : "timer"} role="timer" aria-label="Time left">
            {clock(left)}
          </p>
        )}
        {left === null && (
          <p className="timer" role="timer" aria-label="Time in this block">
            {clock(spent)}
          </p>
        )}
        <p className="timer q-timer" role="timer" aria-label="Time on this question" data-testid="q-timer">
          <span className="muted">This question </span>
          {clock(mem.seconds[String(q.question_id)] ?? 0)}
        </p>
        {study && <p className="badge">Study mode</p>}
        <p className={`saved save-${save}`} role="status" data-testid="save-state">
          {saveLabel(save, waiting)}
        </p>
        <button aria-expanded={labs} aria-controls="lab-panel" onClick={() => setLabs(!labs)} aria-label="Lab values (L)">
          Lab values
        </button>
        <button aria-expanded={panel === "calculator"} onClick={() => tool("calculator")} aria-label="Calculator (=)">
          Calculator
        </button>
        <Reading p={look} onChange={setLookTo} />
      </header>
      <div className={labs ? "sit-body with-labs" : "sit-body"}>
        <nav className="grid" aria-label="Questions">
          {questions.map((x, i) => {
            const done = answers[String(x.question_id)] !== undefined;
            const flagged = flags.has(x.question_id);
            return (
              <button
                key={x.question_id}
                className={[done ? "done" : "", flagged ? "flagged" : "", i === idx ? "here" : ""].join(" ")}
                aria-current={i === idx ? "step" : undefined}
                aria-label={`Question ${i + 1}${done ? ", answered" : ""}${flagged ? ", flagged" : ""}`}
                onClick={() => move(i)}
              >
                {i + 1}
              </button>
            );
          })}
        </nav>
        {checking ? (
          <Check check={check} total={questions.length} submitting={submitting} onGo={move} onSubmit={() => void submit()} onBack={() => setChecking(false)} />
        ) : (
          <article className="question">
            <h2>
              Question {idx + 1} of {questions.length} {flags.has(q.question_id) && <span className="badge">flagged</span>}{" "}
              <span className="muted qid" data-testid="question-id">
                ID {q.question_id}
              </span>
            </h2>
            {panel === "calculator" && <Calculator onClose={() => setPanel(null)} />}
            <Markdown id="q-stem" className="stem" text={q.question_text} marks={mem.marks[String(q.question_id)]} />
            <p className="actions stem-tools">
              <button onMouseDown={(e) => e.preventDefault()} onClick={highlight} aria-label="Highlight the selected text (M)">
                Highlight
              </button>
              {!!mem.marks[String(q.question_id)]?.length && <button onClick={clearMarks}>Clear highlights</button>}
              <button aria-expanded={panel === "notes"} onClick={() => tool("notes")} aria-label="Note on this question (N)">
                Note
              </button>
            </p>
            {panel === "notes" && <QuestionNote questionId={q.question_id} />}
            {q.image_path && <img className="q-image" src={`/uploads/${q.image_path}`} alt={`Image for question ${idx + 1}`} />}
            {showAnswer ? (
              <div className="explain" role="note">
                <p>
                  <strong>{picked === q.correct_answer ? "Correct." : `The answer is ${q.correct_answer}.`}</strong>
                </p>
                <Options q={q} picked={picked} />
                <AnswerSide q={q} />
              </div>
            ) : (
              <fieldset>
                <legend className="sr-only">Answer</legend>
                {(q.options ?? []).map((o, i) => (
                  <label
                    key={i}
                    className={`option ${picked === o ? "picked" : ""} ${struck.includes(i) ? "struck" : ""}`}
                    onContextMenu={(e) => (e.preventDefault(), strike(i))}
                  >
                    <input type="radio" name={`q${q.question_id}`} checked={picked === o} onChange={() => choose(o)} />
                    <kbd>{String.fromCharCode(65 + i)}</kbd> <Markdown inline text={o} />
                    {struck.includes(i) && <span className="sr-only"> (struck out)</span>}
                  </label>
                ))}
              </fieldset>
            )}
            <p className="actions">
              <button onClick={() => move(idx - 1)} disabled={idx === 0}>
                Previous
              </button>
              <button onClick={flag} aria-pressed={flags.has(q.question_id)}>
                {flags.has(q.question_id) ? "Unflag" : "Flag"}
              </button>
              {last ? (
                <button onClick={() => setChecking(true)}>End of block</button>
              ) : (
                <button onClick={() => move(idx + 1)}>Next</button>
              )}
              <button className="primary" onClick={askFirst} disabled={submitting}>
                Submit ({answered}/{questions.length} answered)
              </button>
            </p>
            <p className="muted keys">
              Keys: A–I or 1–9 answer · Shift+A–I or right click strike through · ← → move · F flag · M highlight · N note · = calculator · L lab values · + − text size
            </p>
          </article>
        )}
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

/** Check is the end of a block: the questions still unanswered and those
 * flagged, each a step away, before the submission. */
function Check({
  check,
  total,
  submitting,
  onGo,
  onSubmit,
  onBack,
}: {
  check: { unanswered: number[]; flagged: number[] };
  total: number;
  submitting: boolean;
  onGo: (i: number) => void;
  onSubmit: () => void;
  onBack: () => void;
}) {
  const list = (label: string, positions: number[]) =>
    positions.length > 0 && (
      <>
        <h3 id={`check-${label}`}>
          {label} ({positions.length})
        </h3>
        <ul className="actions plain" aria-labelledby={`check-${label}`}>
          {positions.map((i) => (
            <li key={i}>
              <button onClick={() => onGo(i)} aria-label={`Go to question ${i + 1} (${label.toLowerCase()})`}>
                Question {i + 1}
              </button>
            </li>
          ))}
        </ul>
      </>
    );
  const open = check.unanswered.length;
  return (
    <section className="question block-end" aria-labelledby="check-h">
      <h2 id="check-h">Before you submit</h2>
      {open > 0 ? (
        <p role="alert" className="warn">
          {plural(open, "question")} of {total} {open === 1 ? "is" : "are"} unanswered: an unanswered question counts as wrong.
        </p>
      ) : (
        <p>Every question is answered.</p>
      )}
      {list("Unanswered", check.unanswered)}
      {list("Flagged", check.flagged)}
      <p className="actions">
        <button onClick={onBack}>Back to the questions</button>
        <button className="primary" onClick={onSubmit} disabled={submitting}>
          {open > 0 ? `Submit with ${open} unanswered` : "Submit"}
        </button>
      </p>
    </section>
  );
}
