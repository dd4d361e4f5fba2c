import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link, navigate } from "./router";
import { Failed, Status, when } from "./ui";
import { changed, lines } from "./edit";

type Section = { id?: string; heading: string; markdown: string };
type Status_ = "draft" | "review" | "published" | "archived";

// The moves the server allows from each status.
const moves: Record<Status_, Status_[]> = {
  draft: ["review", "published"],
  review: ["draft", "published"],
  published: ["archived"],
  archived: ["draft", "published"],
};

/** Articles lists what the moderator may edit, drafts included, and starts a new one. */
export function ArticleList() {
  const list = useQuery({
    queryKey: ["articles-editable"],
    queryFn: async () => must(await api.GET("/api/v1/articles/", { params: { query: { editable: true, limit: 100 } } })),
  });
  const [title, setTitle] = useState("");
  const create = useMutation({
    mutationFn: async () => must(await api.POST("/api/v1/articles/", { body: { title, sections: [{ heading: "Overview", markdown: "" }] } })),
    onSuccess: (a) => navigate(`/write/${a.id}`),
  });
  return (
    <section>
      <h1>Articles</h1>
      <form className="row" onSubmit={(e) => (e.preventDefault(), create.mutate())}>
        <label className="field grow">
          New article title <input required maxLength={300} value={title} onChange={(e) => setTitle(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Start a draft
        </button>
      </form>
      <Failed m={create} />
      <Status q={list} />
      {list.data && (
        <div className="scroll">
          <table>
            <thead><tr><th>Title</th><th>Updated</th></tr></thead>
            <tbody>
              {list.data.map((a) => (
                <tr key={a.id}>
                  <td><Link href={`/write/${a.id}`}>{a.title}</Link></td>
                  <td>{when(a.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** ArticleEditor edits an article's text and sections, moves it between
 * statuses and restores a revision; each save keeps the old state as one. */
export function ArticleEditor({ id }: { id: number }) {
  const qc = useQueryClient();
  const key = ["article-edit", id];
  const res = useQuery({ queryKey: key, queryFn: async () => must(await api.GET("/api/v1/articles/{id}", { params: { path: { id } } })) });
  const revs = useQuery({
    queryKey: ["article-revisions", id],
    queryFn: async () => must(await api.GET("/api/v1/articles/{id}/revisions", { params: { path: { id }, query: { limit: 50 } } })),
  });
  const [draft, setDraft] = useState<{ title: string; summary: string; slug: string; sections: Section[]; note: string } | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const a = res.data;
  const d = draft ?? (a ? { title: a.title, summary: a.summary, slug: a.slug, sections: (a.sections ?? []).map(({ id, heading, markdown }) => ({ id, heading, markdown })), note: "" } : null);
  const fresh = (next: typeof a) => {
    qc.setQueryData(key, next);
    qc.invalidateQueries({ queryKey: ["article-revisions", id] });
    setDraft(null);
  };
  const save = useMutation({
    mutationFn: async () =>
      must(
        await api.PATCH("/api/v1/articles/{id}", {
          params: { path: { id } },
          body: { title: d!.title, summary: d!.summary, slug: d!.slug, sections: d!.sections, note: d!.note || undefined },
        }),
      ),
    onMutate: () => setResult(null),
    onSuccess: (next) => {
      fresh(next);
      const broken = next.broken_links?.length ?? 0;
      setResult(broken ? `Saved, with ${broken} cross-reference${broken > 1 ? "s" : ""} to a missing article.` : "Saved.");
    },
  });
  const move = useMutation({
    mutationFn: async (status: Status_) => must(await api.PUT("/api/v1/articles/{id}/status", { params: { path: { id } }, body: { status } })),
    onSuccess: (next) => (fresh(next), setResult(`Now ${next.status}.`)),
  });
  const restore = useMutation({
    mutationFn: async (rev: number) => must(await api.POST("/api/v1/articles/{id}/revisions/{revision_id}/restore", { params: { path: { id, revision_id: rev } } })),
    onSuccess: (next) => (fresh(next), setResult("Revision restored.")),
  });
  if (!a || !d) return <Status q={res} />;
  const edit = (p: Partial<typeof d>) => setDraft({ ...d, ...p });
  const sec = (i: number, p: Partial<Section>) => edit({ sections: d.sections.map((s, j) => (j === i ? { ...s, ...p } : s)) });
  const swap = (i: number, j: number) => {
    const s = [...d.sections];
    [s[i], s[j]] = [s[j], s[i]];
    edit({ sections: s });
  };
  return (
    <section>
      <p className="muted">
        <Link href="/write">Articles</Link> ›
      </p>
      <h1>Edit: {a.title}</h1>
      <p className="actions">
        <span className={`badge ${a.status === "published" ? "ok" : ""}`}>{a.status}</span>
        {moves[a.status as Status_]?.map((s) => (
          <button key={s} disabled={move.isPending} onClick={() => move.mutate(s)}>
            {s === "review" ? "Send to review" : s === "published" ? "Publish" : s === "archived" ? "Archive" : "Back to draft"}
          </button>
        ))}
        {a.status === "published" && <Link href={`/articles/${a.slug}`}>Open in the library</Link>}
      </p>
      <p role="status" data-testid="editor-result">{result}</p>
      <Failed m={save} />
      <Failed m={move} />
      <Failed m={restore} />
      <form className="stack" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
        <label className="field">
          Title <input required value={d.title} onChange={(e) => edit({ title: e.target.value })} />
        </label>
        <label className="field">
          Slug <input value={d.slug} onChange={(e) => edit({ slug: e.target.value })} />
        </label>
        <label className="field">
          Summary <textarea rows={2} value={d.summary} onChange={(e) => edit({ summary: e.target.value })} />
        </label>
        <h2>Sections</h2>
        <p className="muted">
          Markdown; link another article with <code>[[slug]]</code> or <code>[[slug#section|label]]</code>.
        </p>
        {d.sections.map((s, i) => (
          <fieldset key={s.id ?? `new-${i}`} className="section-edit">
            <legend>Section {i + 1}</legend>
            <label className="field">
              Heading <input required value={s.heading} onChange={(e) => sec(i, { heading: e.target.value })} />
            </label>
            <label className="field">
              Text of section {i + 1} <textarea rows={6} value={s.markdown} onChange={(e) => sec(i, { markdown: e.target.value })} />
            </label>
            <p className="actions">
              <button type="button" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move section ${i + 1} up`}>Up</button>
              <button type="button" disabled={i === d.sections.length - 1} onClick={() => swap(i, i + 1)} aria-label={`Move section ${i + 1} down`}>Down</button>
              <button type="button" onClick={() => edit({ sections: d.sections.filter((_, j) => j !== i) })} aria-label={`Remove section ${i + 1}`}>Remove</button>
            </p>
          </fieldset>
        ))}
        <p>
          <button type="button" onClick={() => edit({ sections: [...d.sections, { heading: "", markdown: "" }] })}>
            Add section
          </button>
        </p>
        <label className="field">
          Note on this change <input value={d.note} onChange={(e) => edit({ note: e.target.value })} />
        </label>
        <SaveActions disabled={save.isPending || draft === null} dirty={draft !== null} onDiscard={() => setDraft(null)} />
      </form>
      <h2>Revisions</h2>
      <Status q={revs} />
      {revs.data && revs.data.length === 0 && <p>No revision yet: one is kept at each save.</p>}
      <ol className="revisions">
        {(revs.data ?? []).map((r) => (
          <li key={r.id}>
            <strong>{r.title}</strong> <span className="muted">{when(r.created_at)} · {r.status}</span>
            {r.note && <> · {r.note}</>}{" "}
            <button disabled={restore.isPending} onClick={() => restore.mutate(r.id)} aria-label={`Restore the revision of ${when(r.created_at)}`}>
              Restore
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

type QForm = { question_text: string; question_type: "mcq" | "fill_in"; options: string; correct_answer: string; explanation: string };

/** QuestionEditor edits a bank question; each save snapshots the prior state
 * as a version, which can be compared with now and restored. */
export function QuestionEditor({ id }: { id: number }) {
  const qc = useQueryClient();
  const key = ["question", id];
  const res = useQuery({ queryKey: key, queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}", { params: { path: { id } } })) });
  const versions = useQuery({
    queryKey: ["question-versions", id],
    queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}/versions", { params: { path: { id }, query: { limit: 50 } } })),
  });
  const [draft, setDraft] = useState<QForm | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const q = res.data;
  const f: QForm | null =
    draft ??
    (q
      ? { question_text: q.question_text, question_type: q.question_type, options: (q.options ?? []).join("\n"), correct_answer: q.correct_answer ?? "", explanation: q.explanation ?? "" }
      : null);
  const fresh = (next: NonNullable<typeof q>, msg: string) => {
    qc.setQueryData(key, next);
    qc.invalidateQueries({ queryKey: ["question-versions", id] });
    qc.invalidateQueries({ queryKey: ["bank"] });
    setDraft(null);
    setResult(msg);
  };
  const save = useMutation({
    mutationFn: async () =>
      must(
        await api.PATCH("/api/v1/questions/{id}", {
          params: { path: { id } },
          body: { question_text: f!.question_text, question_type: f!.question_type, options: f!.question_type === "mcq" ? lines(f!.options) : [], correct_answer: f!.correct_answer, explanation: f!.explanation },
        }),
      ),
    onMutate: () => setResult(null),
    onSuccess: (next) => fresh(next, `Saved as version ${next.version}.`),
  });
  const restore = useMutation({
    mutationFn: async (v: number) =>
      must(await api.POST("/api/v1/questions/detail/{question_id}/versions/{version_id}/restore", { params: { path: { question_id: id, version_id: v } } })),
    onSuccess: (next) => fresh(next, "Version restored."),
  });
  if (!q || !f) return <Status q={res} />;
  const edit = (p: Partial<QForm>) => setDraft({ ...f, ...p });
  const opts = lines(f.options);
  return (
    <section>
      <p className="muted">
        <Link href="/bank">Question bank</Link> ›
      </p>
      <h1>Edit question {q.id}</h1>
      <p className="muted">
        Version {q.version} · {q.question_category_name ?? "uncategorised"} · updated {when(q.updated_at)}
      </p>
      <p role="status" data-testid="editor-result">{result}</p>
      <Failed m={save} />
      <Failed m={restore} />
      {!q.can_edit && <p role="alert">You may read this question but not edit it.</p>}
      <form className="stack" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
        <label className="field">
          Stem <textarea required rows={4} value={f.question_text} onChange={(e) => edit({ question_text: e.target.value })} />
        </label>
        <div className="field">
          <label htmlFor="q-type">Type</label>
          <select id="q-type" value={f.question_type} onChange={(e) => edit({ question_type: e.target.value as QForm["question_type"] })}>
            <option value="mcq">Multiple choice</option>
            <option value="fill_in">Fill in</option>
          </select>
        </div>
        {f.question_type === "mcq" && (
          <label className="field">
            Options (one a line) <textarea rows={5} value={f.options} onChange={(e) => edit({ options: e.target.value })} />
          </label>
        )}
        {f.question_type === "mcq" ? (
          <div className="field">
            <label htmlFor="q-answer">Answer</label>
            <select id="q-answer" required value={f.correct_answer} onChange={(e) => edit({ correct_answer: e.target.value })}>
              <option value="">Choose…</option>
              {opts.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </div>
        ) : (
          <label className="field">
            Accepted answers (separated by |) <input required value={f.correct_answer} onChange={(e) => edit({ correct_answer: e.target.value })} />
          </label>
        )}
        <label className="field">
          Explanation <textarea rows={4} value={f.explanation} onChange={(e) => edit({ explanation: e.target.value })} />
        </label>
        <SaveActions disabled={!q.can_edit || save.isPending || draft === null} dirty={draft !== null} onDiscard={() => setDraft(null)} />
      </form>
      <h2>Version history</h2>
      <Status q={versions} />
      {versions.data && versions.data.length === 0 && <p>No earlier version.</p>}
      <ol className="revisions">
        {(versions.data ?? []).map((v) => {
          const diff = changed(v.snapshot, q);
          return (
            <li key={v.id}>
              <span className="muted">{when(v.created_at)}</span> · {diff.length ? `differs in ${diff.join(", ")}` : "same as now"}
              <details>
                <summary>Show this version</summary>
                <p>{v.snapshot.question_text}</p>
                {!!v.snapshot.options?.length && (
                  <ol type="A">
                    {v.snapshot.options.map((o, i) => (
                      <li key={i}>
                        {o}
                        {o === v.snapshot.correct_answer && <strong> (answer)</strong>}
                      </li>
                    ))}
                  </ol>
                )}
                {v.snapshot.explanation && <p className="muted">{v.snapshot.explanation}</p>}
              </details>
              {diff.length > 0 && (
                <button disabled={!q.can_edit || restore.isPending} onClick={() => restore.mutate(v.id)} aria-label={`Restore the version of ${when(v.created_at)}`}>
                  Restore
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** The editors' form buttons: save, and discard while there are unsaved changes. */
function SaveActions({ disabled, dirty, onDiscard }: { disabled: boolean; dirty: boolean; onDiscard: () => void }) {
  return (
    <p className="actions">
      <button type="submit" className="primary" disabled={disabled}>
        Save
      </button>
      {dirty && (
        <button type="button" onClick={onDiscard}>
          Discard changes
        </button>
      )}
    </p>
  );
}
