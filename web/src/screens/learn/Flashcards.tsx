// Flashcards: the decks a person may study and what is due (new cards of
// shared decks included), a study session where a card in a learning step
// comes back, the scheduler's interval on each rating and an undo of the
// last one, and a deck's exam forecast.
import { enqueue, flush, isOffline, onOutbox, pending } from "../../lib/outbox";
import { sendEntry } from "../../api/outbox";
import { useEffect, useRef, useState } from "react";
import { useDecks, useForecast, useGrade, useOutcomes, useQueue, useSetExam, useUndoGrade, type StudyItem } from "../../api/flashcards";
import { Link } from "../../router";
import { barClass, gradeKey, graded, interval, nextCard, ratings, session, soon, undone, type Rating, type Session } from "../../lib/cards";
import { Failed, Field, plural, Status } from "../../ui/ui";

export function Decks({ moderator }: { moderator: boolean }) {
  const decks = useDecks();
  const due = useQueue(0);
  return (
    <section>
      <h1>Flashcards</h1>
      <p className="actions">
        <Link className="button primary" href="/flashcards/study">
          Review due cards{due.data ? ` (${due.data.length})` : ""}
        </Link>
        <Link className="button" href="/flashcards/stats">
          Statistics
        </Link>
      </p>
      <Status q={decks} what="the decks" />
      <ul className="cards">
        {(decks.data ?? []).map((d) => (
          <li key={d.id} className="card">
            <h2>{d.title}</h2>
            <p className="muted">
              {plural(d.card_count, "card")}
              {d.is_shared ? " · shared" : ""}
            </p>
            {d.description && <p>{d.description}</p>}
            <p className="actions">
              <Link className="button" href={`/flashcards/study?deck=${d.id}`} aria-label={`Study ${d.title}`}>
                Study
              </Link>
            </p>
          </li>
        ))}
      </ul>
      {decks.isSuccess && !decks.data.length && (
        <div className="panel empty">
          <h2>No deck yet</h2>
          <p>
            Decks come from the site's moderators and administrators: they write them by hand, make them from a library article or bring them in from Anki, and
            share them. A shared deck shows here for everyone, with its new cards counted as due.
          </p>
          {moderator ? (
            <p>You can start one from an article in the article editor (Make flashcards with AI), or through the flashcards API.</p>
          ) : (
            <p>
              Missing a deck on a topic? <Link href="/contact">Ask the team</Link>.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

const ratingLabel: Record<Rating, string> = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" };

/** Study shows the queue one card at a time: the answer on request, then
 * the four ratings (keys 1–4), each labelled with when the scheduler would
 * bring the card back; U undoes the last rating. */
export function Study() {
  const deck = Number(new URLSearchParams(location.search).get("deck") ?? 0);
  const q = useQueue(deck);
  const [s, setS] = useState<Session<StudyItem> | null>(null);
  const [now, setNow] = useState(Date.now());
  const [shown, setShown] = useState(false);
  const [typed, setTyped] = useState("");
  const [last, setLast] = useState<{ card: StudyItem; text: string } | null>(null);
  const started = useRef(Date.now());
  // The queue is read afresh once per visit; the session then moves on locally.
  if (s === null && q.data && q.isFetchedAfterMount) setS(session(q.data));
  const card = s ? nextCard(s, now) : null;
  const outcomes = useOutcomes(card?.card_id, s?.reviewed ?? 0);
  const grade = useGrade();
  const undo = useUndoGrade();

  // A card waiting on its learning step shows once the step has passed.
  useEffect(() => {
    if (!s || card || !s.later.length) return;
    const t = setInterval(() => setNow(Date.now()), 5_000);
    return () => clearInterval(t);
  }, [s, card]);

  const rate = (rating: Rating) => {
    if (!card || grade.isPending) return;
    const body = { rating, duration_ms: Math.min(Date.now() - started.current, 86_400_000), ...(card.card_type === "type_in" ? { answer: typed } : {}) };
    // Offline, the review waits in the outbox (sent in order once the
    // network is back) and the session moves on without the scheduler's word.
    const later = () => {
      void enqueue({ kind: "review", card: card.card_id, body });
      setLast({ card, text: `${ratingLabel[rating]}: offline, the rating waits to be sent.` });
      setS((x) => x && graded(x, card, { due: new Date().toISOString(), scheduled_days: 1 }));
      setShown(false);
      setTyped("");
      started.current = Date.now();
    };
    // React Query would hold a write made offline in memory only.
    if (!navigator.onLine) return later();
    grade.mutate(
      { card: card.card_id, body },
      {
        onSuccess: (r) => {
          setLast({ card, text: `${ratingLabel[rating]}: back ${r.scheduled_days === 0 ? `in ${soon(Date.parse(r.due), Date.now())}` : interval(r.scheduled_days)}${r.correct === false ? " (typed answer did not match)" : ""}.` });
          setS((x) => x && graded(x, { ...card, state: r.state }, r));
          setShown(false);
          setTyped("");
          setNow(Date.now());
          started.current = Date.now();
        },
        onError: (err) => {
          if (!isOffline(err)) return;
          grade.reset();
          later();
        },
      },
    );
  };

  // Reviews that waited offline go out when the network is back.
  const [unsent, setUnsent] = useState(0);
  useEffect(() => {
    const count = () => void pending().then((p) => setUnsent(p.filter((e) => e.kind === "review").length));
    const send = () => void flush(sendEntry).then(count, count);
    send();
    const t = setInterval(() => unsent > 0 && send(), 3000);
    const off = onOutbox(count);
    window.addEventListener("online", send);
    return () => (clearInterval(t), off(), window.removeEventListener("online", send));
  }, [unsent > 0]); // eslint-disable-line react-hooks/exhaustive-deps
  const takeBack = () => {
    if (!last || undo.isPending) return;
    undo.mutate(last.card.card_id, {
      onSuccess: (item) => {
        setS((x) => x && undone(x, item));
        setLast(null);
        setShown(false);
        setTyped("");
        started.current = Date.now();
      },
    });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "u" || e.key === "U") return takeBack();
      if (!card) return;
      if (!shown && (e.key === " " || e.key === "Enter")) {
        e.preventDefault();
        setShown(true);
        return;
      }
      const r = shown ? gradeKey(e.key) : null;
      if (r) rate(r);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const next = (r: Rating) => outcomes.data?.find((o) => o.rating === r);
  const waiting = s?.later.length ?? 0;
  return (
    <section>
      <h1>Review flashcards</h1>
      <Status q={q} what="the cards" />
      {!s && q.data && <p aria-live="polite">Loading…</p>}
      <p className="muted" role="status" data-testid="reviews-waiting">
        {unsent > 0 ? `Offline — ${unsent} ${unsent === 1 ? "rating" : "ratings"} waiting` : ""}
      </p>
      <p aria-live="polite" className="muted" data-testid="last-grade">
        {last?.text}
      </p>
      {last && (
        <p className="actions">
          <button onClick={takeBack} disabled={undo.isPending} aria-keyshortcuts="U">
            Undo the last rating <kbd>U</kbd>
          </button>
        </p>
      )}
      <Failed m={undo} />
      {s && !card && (
        <div className="question">
          <p>
            {s.reviewed ? `Done for now: ${s.reviewed} reviewed.` : "Nothing is due."}
            {waiting > 0 && ` ${plural(waiting, "card")} in a learning step ${waiting === 1 ? "comes" : "come"} back later today.`}
          </p>
          <p className="actions">
            <Link className="button" href="/flashcards">
              Back to decks
            </Link>
          </p>
        </div>
      )}
      {card && s && (
        <article className="question flashcard" aria-label="Card">
          <h2>
            Card {s.reviewed + 1} · {card.state}
            <span className="muted"> · {plural(s.queue.length + s.later.length, "card")} left</span>
          </h2>
          <p className="stem">{card.question}</p>
          {card.card_type === "type_in" && (
            <Field id="typed" label="Your answer">
              <input value={typed} disabled={shown} onChange={(e) => setTyped(e.target.value)} onKeyDown={(e) => e.key === "Enter" && setShown(true)} />
            </Field>
          )}
          {!shown ? (
            <p className="actions">
              <button className="primary" onClick={() => setShown(true)}>
                Show answer <kbd>Space</kbd>
              </button>
            </p>
          ) : (
            <>
              <p className="answer" role="note">
                {card.answer}
              </p>
              <div className="actions grades" role="group" aria-label="How well did you recall it?">
                {ratings.map((r, i) => {
                  const o = next(r);
                  return (
                    <button key={r} className={`grade ${r}`} disabled={grade.isPending} onClick={() => rate(r)}>
                      {ratingLabel[r]} <span className="ivl" data-testid={`ivl-${r}`}>{o ? soon(Date.parse(o.due), Date.now()) : "…"}</span> <kbd>{i + 1}</kbd>
                    </button>
                  );
                })}
              </div>
            </>
          )}
          <Failed m={grade} />
        </article>
      )}
      {deck > 0 && <Forecast deck={deck} />}
    </section>
  );
}

/** Forecast shows the reviews per day until the deck's exam, and sets the exam date. */
function Forecast({ deck }: { deck: number }) {
  const f = useForecast(deck);
  const [date, setDate] = useState("");
  const setExam = useSetExam(deck);
  const days = f.data?.days ?? [];
  const max = Math.max(0, ...days.map((d) => d.reviews));
  return (
    <section aria-labelledby="forecast">
      <h2 id="forecast">Exam forecast</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), setExam.mutate(date))}>
        <Field id="exam-date" label="Exam date">
          <input type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
        </Field>
        <button type="submit" disabled={setExam.isPending}>
          Set exam date
        </button>
      </form>
      <Failed m={setExam} />
      {f.data && (
        <>
          <p className="muted">
            {f.data.exam_date ? `Exam on ${f.data.exam_date}.` : "No exam date set."} {f.data.unseen} cards not yet seen.
          </p>
          {max > 0 && (
            <ol className="forecast" aria-label="Reviews per day">
              {days.map((d) => (
                <li key={d.date} title={`${d.date}: ${d.reviews}`}>
                  <span className={`bar ${barClass(d.reviews, max)}`} />
                  <span className="sr-only">
                    {d.date}: {d.reviews} reviews
                  </span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
