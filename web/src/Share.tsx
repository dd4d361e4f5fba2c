import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link } from "./router";
import { Failed, Status, when } from "./ui";

const kinds = { quiz: "Quiz", article: "Article", deck: "Flashcard deck" } as const;
type Kind = keyof typeof kinds;

/** targets lists what the person may share of one kind, as id and title. */
function useTargets(kind: Kind) {
  return useQuery({
    queryKey: ["share-targets", kind],
    queryFn: async (): Promise<{ id: number; title: string }[]> => {
      if (kind === "quiz") return must(await api.GET("/api/v1/quizzes/")) ?? [];
      if (kind === "article") return must(await api.GET("/api/v1/articles/", { params: { query: { limit: 100 } } })) ?? [];
      return must(await api.GET("/api/v1/flashcards")) ?? [];
    },
  });
}

/** Shares makes read-only links to a published quiz, article or deck and
 * revokes them; the token is shown once, when the link is made. */
export function Shares() {
  const qc = useQueryClient();
  const links = useQuery({ queryKey: ["share-links"], queryFn: async () => must(await api.GET("/api/v1/share/links", { params: { query: { limit: 100 } } })) });
  const [form, setForm] = useState({ kind: "quiz" as Kind, target: "", answers: false, days: "" });
  const targets = useTargets(form.kind);
  const [made, setMade] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: async () =>
      must(
        await api.POST("/api/v1/share/links", {
          body: { kind: form.kind, target_id: Number(form.target), with_answers: form.answers, expires_in_days: form.days ? Number(form.days) : undefined },
        }),
      ),
    onMutate: () => setMade(null),
    onSuccess: (l) => {
      setMade(`${location.origin}/s/${l.token}`);
      qc.invalidateQueries({ queryKey: ["share-links"] });
    },
  });
  const revoke = useMutation({
    mutationFn: async (id: number) => {
      const r = await api.DELETE("/api/v1/share/links/{link_id}", { params: { path: { link_id: id } } });
      if (!r.response.ok) must(r);
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: ["share-links"] }),
  });
  return (
    <section>
      <h1>Shared links</h1>
      <p className="muted">A link opens a published quiz, article or deck read-only, without signing in, until it expires or you revoke it.</p>
      <h2>Make a link</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), create.mutate())}>
        <div className="field">
          <label htmlFor="share-kind">What</label>
          <select id="share-kind" value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as Kind, target: "" })}>
            {Object.entries(kinds).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field grow">
          <label htmlFor="share-target">{kinds[form.kind]}</label>
          <select id="share-target" required value={form.target} onChange={(e) => setForm({ ...form, target: e.target.value })}>
            <option value="">Choose…</option>
            {(targets.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </select>
        </div>
        <label className="field">
          Days to live <input type="number" min={1} max={365} inputMode="numeric" placeholder="default" value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} />
        </label>
        {form.kind === "quiz" && (
          <label className="check">
            <input type="checkbox" checked={form.answers} onChange={(e) => setForm({ ...form, answers: e.target.checked })} /> With answers
          </label>
        )}
        <button type="submit" className="primary" disabled={create.isPending || !form.target}>
          Make link
        </button>
      </form>
      <Failed m={create} />
      {made && (
        <p role="status" className="made">
          Shown only now: <input aria-label="New link" readOnly value={made} onFocus={(e) => e.target.select()} />{" "}
          <button onClick={() => void navigator.clipboard?.writeText(made)}>Copy</button>
        </p>
      )}
      <h2>Your links</h2>
      <Status q={links} />
      <Failed m={revoke} />
      {links.data && links.data.length === 0 && <p>No link yet.</p>}
      {!!links.data?.length && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Share links">
          <table>
            <thead>
              <tr><th>Shared</th><th>State</th><th>Expires</th><th>Opened</th><th><span className="sr-only">Actions</span></th></tr>
            </thead>
            <tbody>
              {links.data.map((l) => (
                <tr key={l.id}>
                  <td>
                    {l.title} <span className="muted">({kinds[l.kind as Kind] ?? l.kind}{l.with_answers ? ", with answers" : ""})</span>
                  </td>
                  <td><span className={`badge ${l.status === "active" ? "ok" : "bad"}`}>{l.status}</span></td>
                  <td>{when(l.expires_at)}</td>
                  <td>{l.views}</td>
                  <td>
                    {l.status === "active" && (
                      <button disabled={revoke.isPending} onClick={() => revoke.mutate(l.id)} aria-label={`Revoke the link to ${l.title}`}>
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

type Shared = {
  title?: string;
  summary?: string;
  description?: string;
  mode?: string;
  sections?: { key: string; heading: string; html: string }[];
  questions?: { id: number; question_text: string; options?: string[]; correct_answer?: string; explanation?: string }[];
  cards?: { id: number; question: string; answer: string }[];
};

/** SharedView opens a share link: no sign-in, read-only. */
export function SharedView({ token }: { token: string }) {
  const res = useQuery({
    queryKey: ["shared", token],
    retry: false,
    queryFn: async () => {
      const r = await fetch(`/api/v1/share/open/${encodeURIComponent(token)}`);
      const body = await r.json().catch(() => null);
      if (!r.ok) throw new Error(body?.error?.message ?? `${r.status} ${r.statusText}`);
      return body as { kind: string; expires_at: string; with_answers: boolean; content: Shared };
    },
  });
  if (!res.data)
    return (
      <main id="main" className="shared">
        <h1>Shared link</h1>
        <Status q={res} />
        <p>
          <Link href="/">Rounds</Link>
        </p>
      </main>
    );
  const c = res.data.content;
  return (
    <main id="main" className="shared reader">
      <p className="muted">Shared from Rounds, read-only, until {when(res.data.expires_at)}.</p>
      <h1>{c.title}</h1>
      {(c.summary || c.description) && <p className="lead">{c.summary || c.description}</p>}
      {c.sections?.map((s) => (
        <section key={s.key} aria-labelledby={`h-${s.key}`}>
          <h2 id={`h-${s.key}`}>{s.heading}</h2>
          {/* The server renders markdown in safe mode (no raw HTML, no script links). */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: s.html }} />
        </section>
      ))}
      {c.questions && (
        <ol className="review shared-quiz">
          {c.questions.map((q) => (
            <li key={q.id}>
              <p>{q.question_text}</p>
              {!!q.options?.length && (
                <ol type="A">
                  {q.options.map((o, i) => (
                    <li key={i} className={o === q.correct_answer ? "right-answer" : undefined}>
                      {o}
                      {o === q.correct_answer && <strong> (answer)</strong>}
                    </li>
                  ))}
                </ol>
              )}
              {q.explanation && <p className="muted">{q.explanation}</p>}
            </li>
          ))}
        </ol>
      )}
      {c.cards && (
        <dl className="shared-cards">
          {c.cards.map((k) => (
            <div key={k.id} className="card">
              <dt>{k.question}</dt>
              <dd>{k.answer}</dd>
            </div>
          ))}
        </dl>
      )}
    </main>
  );
}
