import { useState } from "react";
import { useQuizzes } from "../../api/quizzes";
import { Link } from "../../router";
import { Field, Status } from "../../ui/ui";

export function Quizzes() {
  const [q, setQ] = useState("");
  const list = useQuizzes();
  const needle = q.trim().toLowerCase();
  const shown = (list.data ?? []).filter((z) => !needle || z.title.toLowerCase().includes(needle));
  return (
    <section>
      <h1>Quizzes</h1>
      <Field id="quiz-filter" label="Filter by title">
        <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </Field>
      <Status q={list} what="the quizzes" />
      <ul className="cards">
        {shown.map((z) => (
          <li key={z.id} className="card">
            <h2>{z.title}</h2>
            <p className="muted">
              {z.questions_count} questions · {z.mode === "timed" ? `timed${z.time_limit_minutes ? `, ${z.time_limit_minutes} min` : ""}` : "learning"}
              {z.category_name ? ` · ${z.category_name}` : ""}
            </p>
            <p className="actions">
              <Link className="button primary" href={`/quizzes/${z.id}/sit`} aria-label={`Sit ${z.title}`}>Sit</Link>
              <Link className="button" href={`/quizzes/${z.id}/sit?study=1`} aria-label={`Study ${z.title}`}>Study</Link>
            </p>
          </li>
        ))}
      </ul>
      {list.isSuccess && shown.length === 0 && <p>No quiz matches.</p>}
    </section>
  );
}
