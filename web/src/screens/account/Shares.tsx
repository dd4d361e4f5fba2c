// Share links: make read-only links to a published quiz, article or deck,
// revoke them, and open one without signing in.
import { useState } from "react";
import { useDecks } from "../../api/flashcards";
import { useArticles } from "../../api/library";
import { useQuizzes } from "../../api/quizzes";
import { useMakeLink, useRevokeLink, useShared, useShareLinks } from "../../api/shares";
import { Link } from "../../router";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status, when } from "../../ui/ui";

const kinds = { quiz: "Quiz", article: "Article", deck: "Flashcard deck" } as const;
type Kind = keyof typeof kinds;

/** useTargets lists what the person may share of one kind, as id and title. */
function useTargets(kind: Kind): { id: number; title: string }[] {
  const quizzes = useQuizzes();
  const articles = useArticles({});
  const decks = useDecks();
  return (kind === "quiz" ? quizzes.data : kind === "article" ? articles.data : decks.data) ?? [];
}

/** Shares makes read-only links to a published quiz, article or deck and
 * revokes them; the token is shown once, when the link is made. */
export function Shares() {
  const links = useShareLinks();
  const [form, setForm] = useState({ kind: "quiz" as Kind, target: "", answers: false, days: "" });
  const targets = useTargets(form.kind);
  const [made, setMade] = useState<string | null>(null);
  const create = useMakeLink((l) => setMade(`${location.origin}/s/${l.token}`));
  const revoke = useRevokeLink();
  return (
    <section>
      <h1>Shared links</h1>
      <p className="muted">A link opens a published quiz, article or deck read-only, without signing in, until it expires or you revoke it.</p>
      <h2>Make a link</h2>
      <form
        className="row"
        onSubmit={(e) => (
          e.preventDefault(),
          setMade(null),
          create.mutate({ kind: form.kind, target_id: Number(form.target), with_answers: form.answers, expires_in_days: form.days ? Number(form.days) : undefined })
        )}
      >
        <Field id="share-kind" label="What">
          <select value={form.kind} onChange={(e) => setForm({ ...form, kind: e.target.value as Kind, target: "" })}>
            {Object.entries(kinds).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <Field id="share-target" label={kinds[form.kind]}>
          <select required value={form.target} onChange={(e) => setForm({ ...form, target: e.target.value })}>
            <option value="">Choose…</option>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.title}
              </option>
            ))}
          </select>
        </Field>
        <Field id="share-days" label="Days to live">
          <input type="number" min={1} max={365} inputMode="numeric" placeholder="default" value={form.days} onChange={(e) => setForm({ ...form, days: e.target.value })} />
        </Field>
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
        <ActionTable
          label="Share links"
          rows={links.data}
          rowKey={(l) => l.id}
          columns={[
            {
              header: "Shared",
              cell: (l) => (
                <>
                  {l.title} <span className="muted">({kinds[l.kind as Kind] ?? l.kind}{l.with_answers ? ", with answers" : ""})</span>
                </>
              ),
            },
            { header: "State", cell: (l) => <span className={`badge ${l.status === "active" ? "ok" : "bad"}`}>{l.status}</span> },
            { header: "Expires", cell: (l) => when(l.expires_at) },
            { header: "Opened", num: true, cell: (l) => l.views },
          ]}
          actions={(l) =>
            l.status === "active" && (
              <button disabled={revoke.isPending} onClick={() => revoke.mutate(l.id)} aria-label={`Revoke the link to ${l.title}`}>
                Revoke
              </button>
            )
          }
        />
      )}
    </section>
  );
}

/** SharedView opens a share link: no sign-in, read-only. */
export function SharedView({ token }: { token: string }) {
  const res = useShared(token);
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
