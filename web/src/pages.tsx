import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { signOut } from "./auth";
import { Link } from "./router";
import { pct, Status, when } from "./ui";

export function Dashboard() {
  const q = useQuery({ queryKey: ["dashboard"], queryFn: async () => must(await api.GET("/api/v1/attempts/stats/dashboard")) });
  const d = q.data;
  return (
    <section>
      <h1>Dashboard</h1>
      <Status q={q} />
      {d && (
        <>
          <dl className="stats">
            <div><dt>Quizzes to sit</dt><dd>{d.quizzes}</dd></div>
            <div><dt>Completed attempts</dt><dd>{d.completed_attempts}</dd></div>
            <div><dt>In progress</dt><dd>{d.in_progress}</dd></div>
            <div><dt>Average score</dt><dd>{pct(d.average_score)}</dd></div>
            <div><dt>Best score</dt><dd>{pct(d.best_score)}</dd></div>
          </dl>
          <h2>Recent attempts</h2>
          {!d.recent_attempts?.length ? (
            <p>
              None yet. <Link href="/quizzes">Pick a quiz</Link>.
            </p>
          ) : (
            <div className="scroll" tabIndex={0} role="region" aria-label="Recent attempts"><table>
              <thead><tr><th>Quiz</th><th>Mode</th><th>Score</th><th>Finished</th></tr></thead>
              <tbody>
                {(d.recent_attempts ?? []).map((a) => (
                  <tr key={a.id}>
                    <td>
                      {a.completed_at ? <Link href={`/attempts/${a.id}`}>{a.quiz_title}</Link> : <Link href={`/quizzes/${a.quiz_id}/sit`}>{a.quiz_title} (resume)</Link>}
                    </td>
                    <td>{a.mode}</td>
                    <td>{a.completed_at ? `${a.score}/${a.total_questions} (${pct(a.percentage)})` : "–"}</td>
                    <td>{when(a.completed_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table></div>
          )}
        </>
      )}
    </section>
  );
}

export function QuizList() {
  const [q, setQ] = useState("");
  const list = useQuery({ queryKey: ["quizzes"], queryFn: async () => must(await api.GET("/api/v1/quizzes/")) });
  const needle = q.trim().toLowerCase();
  const shown = (list.data ?? []).filter((z) => !needle || z.title.toLowerCase().includes(needle));
  return (
    <section>
      <h1>Quizzes</h1>
      <label className="field">
        Filter by title <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </label>
      <Status q={list} />
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

export function Bank() {
  const [q, setQ] = useState("");
  const [mode, setMode] = useState<"keyword" | "semantic" | "hybrid">("keyword");
  const [applied, setApplied] = useState({ q: "", mode });
  const res = useQuery({
    queryKey: ["bank", applied],
    queryFn: async () =>
      must(await api.GET("/api/v1/questions/bank", { params: { query: { q: applied.q || undefined, search_mode: applied.mode, limit: 50 } } })),
  });
  return (
    <section>
      <h1>Question bank</h1>
      <form className="row" onSubmit={(e) => (e.preventDefault(), setApplied({ q, mode }))}>
        <label className="field">
          Search <input type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </label>
        <label className="field">
          Mode
          <select value={mode} onChange={(e) => setMode(e.target.value as typeof mode)}>
            <option value="keyword">Keyword</option>
            <option value="semantic">Semantic</option>
            <option value="hybrid">Hybrid</option>
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
      <Status q={res} />
      {res.data && (
        <>
          <p className="muted">{res.data.total} questions</p>
          <ol className="bank">
            {(res.data.questions ?? []).map((x) => (
              <li key={x.id}>
                <p>{x.question_text}</p>
                <p className="muted">
                  {x.quiz_title ?? "no quiz"} · {x.question_category_name ?? "uncategorised"} ·{" "}
                  <Link href={`/questions/${x.id}/edit`} aria-label={`Edit question ${x.id}`}>
                    Edit
                  </Link>
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

export function Devices() {
  const qc = useQueryClient();
  const res = useQuery({ queryKey: ["sessions"], queryFn: async () => must(await api.GET("/api/v1/auth/sessions")) });
  const revoke = useMutation({
    mutationFn: async (family: string) => {
      const r = await api.DELETE("/api/v1/auth/sessions/{family}", { params: { path: { family } } });
      if (!r.response.ok) throw new Error(`${r.response.status}`);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ["sessions"] }),
  });
  return (
    <section>
      <h1>Devices</h1>
      <p>Each device you signed in on. Ending one stops it from renewing its sign-in.</p>
      <Status q={res} />
      {res.data && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Devices"><table>
          <thead><tr><th>Device</th><th>Signed in</th><th>Last used</th><th><span className="sr-only">Actions</span></th></tr></thead>
          <tbody>
            {res.data.map((s) => (
              <tr key={s.family}>
                <td>{s.device || "unnamed"}</td><td>{when(s.created_at)}</td><td>{when(s.last_used_at)}</td>
                <td><button onClick={() => revoke.mutate(s.family)} disabled={revoke.isPending}>End</button></td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
      <p className="actions">
        <button onClick={() => signOut(true)}>Sign out everywhere</button>
      </p>
    </section>
  );
}
