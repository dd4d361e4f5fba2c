import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link } from "./router";
import { barClass, gradeKey, interval, ratings, type Rating } from "./cards";
import { Failed, Status } from "./ui";

export function Decks() {
  const decks = useQuery({ queryKey: ["decks"], queryFn: async () => must(await api.GET("/api/v1/flashcards", { params: { query: { limit: 100 } } })) });
  const due = useQuery({ queryKey: ["cards-due"], queryFn: () => queue(0) });
  return (
    <section>
      <h1>Flashcards</h1>
      <p className="actions">
        <Link className="button primary" href="/flashcards/study">
          Review due cards{due.data ? ` (${due.data.items?.length ?? 0})` : ""}
        </Link>
      </p>
      <Status q={decks} />
      <ul className="cards">
        {(decks.data ?? []).map((d) => (
          <li key={d.id} className="card">
            <h2>{d.title}</h2>
            <p className="muted">
              {d.card_count} cards{d.is_shared ? " · shared" : ""}
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
      {decks.isSuccess && !decks.data?.length && <p>No deck yet.</p>}
    </section>
  );
}

async function queue(deck: number) {
  return must(await api.GET("/api/v1/flashcards/study/queue", { params: { query: { deck_id: deck || undefined, limit: 50 } } }));
}

const ratingLabel: Record<Rating, string> = { again: "Again", hard: "Hard", good: "Good", easy: "Easy" };

/** Study shows the due queue one card at a time: the answer on request,
 * then the four grades (keys 1–4); each grade is sent before the next card. */
export function Study() {
  const deck = Number(new URLSearchParams(location.search).get("deck") ?? 0);
  const qc = useQueryClient();
  // The queue is read once per visit: graded cards are skipped here, not
  // re-read (an "again" card would come straight back), and leaving drops it.
  const q = useQuery({ queryKey: ["card-queue", deck], queryFn: () => queue(deck), staleTime: Infinity, gcTime: 0 });
  const [done, setDone] = useState<number[]>([]);
  const [shown, setShown] = useState(false);
  const [typed, setTyped] = useState("");
  const [last, setLast] = useState<string | null>(null);
  const started = useRef(Date.now());
  const card = (q.data?.items ?? []).find((c) => !done.includes(c.card_id));

  const grade = useMutation({
    mutationFn: async (rating: Rating) => {
      const body = { rating, duration_ms: Math.min(Date.now() - started.current, 86_400_000), ...(card!.card_type === "type_in" ? { answer: typed } : {}) };
      return must(await api.POST("/api/v1/flashcards/cards/{card_id}/review", { params: { path: { card_id: card!.card_id } }, body }));
    },
    onSuccess: (r, rating) => {
      setLast(`${ratingLabel[rating]}: back ${interval(r.scheduled_days)}${r.correct === false ? " (typed answer did not match)" : ""}.`);
      setDone((d) => [...d, r.card_id]);
      setShown(false);
      setTyped("");
      started.current = Date.now();
      qc.invalidateQueries({ queryKey: ["cards-due"] });
    },
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!card || grade.isPending || e.target instanceof HTMLInputElement) return;
      if (!shown && (e.key === " " || e.key === "Enter")) {
        e.preventDefault();
        setShown(true);
        return;
      }
      const r = shown ? gradeKey(e.key) : null;
      if (r) grade.mutate(r);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [card, shown, grade]);

  return (
    <section>
      <h1>Review flashcards</h1>
      <Status q={q} />
      <p aria-live="polite" className="muted" data-testid="last-grade">
        {last}
      </p>
      {q.isSuccess && !card && (
        <div className="question">
          <p>{done.length ? `Done: ${done.length} reviewed.` : "Nothing is due."}</p>
          <p className="actions">
            <Link className="button" href="/flashcards">Back to decks</Link>
          </p>
        </div>
      )}
      {card && (
        <article className="question flashcard" aria-label="Card">
          <h2>
            Card {done.length + 1} of {q.data!.items!.length} · {card.state}
          </h2>
          <p className="stem">{card.question}</p>
          {card.card_type === "type_in" && (
            <label className="field">
              Your answer
              <input value={typed} disabled={shown} onChange={(e) => setTyped(e.target.value)} onKeyDown={(e) => e.key === "Enter" && setShown(true)} />
            </label>
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
                {ratings.map((r, i) => (
                  <button key={r} className={`grade ${r}`} disabled={grade.isPending} onClick={() => grade.mutate(r)}>
                    {ratingLabel[r]} <kbd>{i + 1}</kbd>
                  </button>
                ))}
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
  const qc = useQueryClient();
  const f = useQuery({
    queryKey: ["forecast", deck],
    queryFn: async () => must(await api.GET("/api/v1/flashcards/{deck_id}/forecast", { params: { path: { deck_id: deck } } })),
  });
  const [date, setDate] = useState("");
  const setExam = useMutation({
    mutationFn: async () => must(await api.PUT("/api/v1/flashcards/{deck_id}/exam", { params: { path: { deck_id: deck } }, body: { exam_date: date } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["forecast", deck] }),
  });
  const days = f.data?.days ?? [];
  const max = Math.max(0, ...days.map((d) => d.reviews));
  return (
    <section aria-labelledby="forecast">
      <h2 id="forecast">Exam forecast</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), setExam.mutate())}>
        <label className="field">
          Exam date <input type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
        </label>
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
