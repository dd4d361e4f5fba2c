import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Link, navigate } from "./router";
import { Failed, Field, Status, when } from "./ui";
import type { components } from "./api/schema";
import { diff, fieldErrors, lines } from "./edit";
import { AiDraft, AiTools, Figures, useMedia } from "./ArticleTools";

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
      <AiDraft />
      <Status q={list} />
      {list.data && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Articles">
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
  // Figures and the model write the stored article: read it again.
  const reload = () => {
    qc.invalidateQueries({ queryKey: key });
    qc.invalidateQueries({ queryKey: ["article-revisions", id] });
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
      <Figures articleId={id} sections={a.sections ?? []} locked={draft !== null} onChange={reload} />
      <AiTools articleId={id} sections={a.sections ?? []} locked={draft !== null} onRefined={reload} />
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

type QForm = {
  question_text: string;
  question_type: "mcq" | "fill_in";
  options: string;
  correct_answer: string;
  option_explanations: string;
  explanation: string;
  key_points: string;
  attending_tip: string;
  image_path: string;
  explanation_image_path: string;
  category: string;
};

type Question = components["schemas"]["QuestionBody"];

const formOf = (q: Question): QForm => ({
  question_text: q.question_text,
  question_type: q.question_type,
  options: (q.options ?? []).join("\n"),
  correct_answer: q.correct_answer ?? "",
  option_explanations: (q.option_explanations ?? []).join("\n"),
  explanation: q.explanation ?? "",
  key_points: (q.key_points ?? []).join("\n"),
  attending_tip: q.attending_tip ?? "",
  image_path: q.image_path ?? "",
  explanation_image_path: q.explanation_image_path ?? "",
  category: q.question_category_id == null ? "" : String(q.question_category_id),
});

/** QuestionEditor edits every field of a bank question the bank accepts;
 * each save snapshots the prior state as a version, which can be compared
 * with now field by field and restored. The server's problems show next
 * to their fields. */
export function QuestionEditor({ id }: { id: number }) {
  const qc = useQueryClient();
  const key = ["question", id];
  const res = useQuery({ queryKey: key, queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}", { params: { path: { id } } })) });
  const versions = useQuery({
    queryKey: ["question-versions", id],
    queryFn: async () => must(await api.GET("/api/v1/questions/detail/{id}/versions", { params: { path: { id }, query: { limit: 50 } } })),
  });
  const cats = useQuery({ queryKey: ["question-categories"], queryFn: async () => must(await api.GET("/api/v1/question-categories/")) });
  const [draft, setDraft] = useState<QForm | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const q = res.data;
  const f: QForm | null = draft ?? (q ? formOf(q) : null);
  const fresh = (msg: string) => {
    qc.invalidateQueries({ queryKey: key });
    qc.invalidateQueries({ queryKey: ["question-versions", id] });
    qc.invalidateQueries({ queryKey: ["bank"] });
    setDraft(null);
    setResult(msg);
  };
  const save = useMutation({
    mutationFn: async () => {
      const mcq = f!.question_type === "mcq";
      const was = formOf(q!);
      // Only the category changed: no content save, so no new version.
      const same = (Object.keys(was) as (keyof QForm)[]).every((k) => k === "category" || was[k] === f![k]);
      const next = same ? q! : must(
        await api.PATCH("/api/v1/questions/{id}", {
          params: { path: { id } },
          body: {
            question_text: f!.question_text,
            question_type: f!.question_type,
            options: mcq ? lines(f!.options) : [],
            correct_answer: f!.correct_answer,
            option_explanations: mcq ? lines(f!.option_explanations) : [],
            explanation: f!.explanation,
            key_points: lines(f!.key_points),
            attending_tip: f!.attending_tip,
            image_path: f!.image_path || null,
            explanation_image_path: f!.explanation_image_path || null,
          },
        }),
      );
      // The category is filing, not content: its own route, no version.
      if (f!.category !== was.category) {
        const query = f!.category ? { category_id: Number(f!.category) } : {};
        must(await api.PATCH("/api/v1/questions/{id}/category", { params: { path: { id }, query } }));
      }
      return next;
    },
    onMutate: () => setResult(null),
    onSuccess: (next) => fresh(next === q ? "Category saved." : `Saved as version ${next.version}.`),
  });
  const restore = useMutation({
    mutationFn: async (v: number) =>
      must(await api.POST("/api/v1/questions/detail/{question_id}/versions/{version_id}/restore", { params: { path: { question_id: id, version_id: v } } })),
    onSuccess: () => fresh("Version restored."),
  });
  if (!q || !f) return <Status q={res} />;
  const edit = (p: Partial<QForm>) => setDraft({ ...f, ...p });
  const errs = fieldErrors(save.error);
  const opts = lines(f.options);
  const text = (k: keyof QForm, label: string, rows = 3, hint?: string) => (
    <Field id={`q-${k}`} label={hint ? <>{label} <span className="muted">({hint})</span></> : label} error={errs[k]}>
      <textarea rows={rows} value={f[k]} onChange={(e) => edit({ [k]: e.target.value })} />
    </Field>
  );
  return (
    <section>
      <p className="muted">
        <Link href="/bank">Question bank</Link> ›
      </p>
      <h1>Edit question {q.id}</h1>
      <p className="muted">
        Version {q.version} · {q.question_category_name ?? "uncategorised"} · updated {when(q.updated_at)}
      </p>
      {!!q.tags?.length && (
        <p aria-label="Tags">
          {q.tags.map((t) => (
            <span key={t.id} className="badge" title={t.derived ? "from the category tree" : t.type}>
              {t.type}: {t.name}
            </span>
          ))}
        </p>
      )}
      <p role="status" data-testid="editor-result">{result}</p>
      <Failed m={save} />
      <Failed m={restore} />
      {!q.can_edit && <p role="alert">You may read this question but not edit it.</p>}
      <form className="stack" onSubmit={(e) => (e.preventDefault(), save.mutate())}>
        <Field id="q-question_text" label="Stem" error={errs.question_text}>
          <textarea required rows={4} value={f.question_text} onChange={(e) => edit({ question_text: e.target.value })} />
        </Field>
        <Field id="q-type" label="Type" error={errs.question_type}>
          <select value={f.question_type} onChange={(e) => edit({ question_type: e.target.value as QForm["question_type"] })}>
            <option value="mcq">Multiple choice</option>
            <option value="fill_in">Fill in</option>
          </select>
        </Field>
        {f.question_type === "mcq" && text("options", "Options", 5, "one a line")}
        {f.question_type === "mcq" ? (
          <Field id="q-answer" label="Answer" error={errs.correct_answer}>
            <select value={f.correct_answer} onChange={(e) => edit({ correct_answer: e.target.value })}>
              <option value="">Choose…</option>
              {opts.map((o, i) => (
                <option key={i}>{o}</option>
              ))}
            </select>
          </Field>
        ) : (
          <Field id="q-answer" label="Accepted answers (separated by |)" error={errs.correct_answer}>
            <input value={f.correct_answer} onChange={(e) => edit({ correct_answer: e.target.value })} />
          </Field>
        )}
        {f.question_type === "mcq" && text("option_explanations", "Why each option", 5, "one a line, in option order, or none")}
        {text("explanation", "Explanation", 4)}
        {text("key_points", "Key points", 3, "one a line")}
        {text("attending_tip", "Attending's tip", 2)}
        <ImagePick id="q-image" label="Question image" value={f.image_path} error={errs.image_path} onChange={(image_path) => edit({ image_path })} />
        <ImagePick id="q-explanation-image" label="Image with the explanation" value={f.explanation_image_path} error={errs.explanation_image_path} onChange={(explanation_image_path) => edit({ explanation_image_path })} />
        <Field id="q-category" label="Category" error={errs.category_id}>
          <select value={f.category} onChange={(e) => edit({ category: e.target.value })}>
            <option value="">Uncategorised</option>
            {(cats.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <SaveActions disabled={!q.can_edit || save.isPending || draft === null} dirty={draft !== null} onDiscard={() => (setDraft(null), save.reset())} />
      </form>
      <h2>Version history</h2>
      <Status q={versions} />
      {versions.data && versions.data.length === 0 && <p>No earlier version.</p>}
      <ol className="revisions">
        {(versions.data ?? []).map((v) => {
          const changes = diff(v.snapshot, q);
          return (
            <li key={v.id}>
              <span className="muted">{when(v.created_at)}</span> · {changes.length ? `differs in ${changes.map((c) => c.field).join(", ")}` : "same as now"}
              {changes.length > 0 && (
                <details>
                  <summary>Compare with now</summary>
                  <div className="scroll" tabIndex={0} role="region" aria-label="Changes since this version">
                    <table className="diff">
                      <thead>
                        <tr><th scope="col">Field</th><th scope="col">This version</th><th scope="col">Now</th></tr>
                      </thead>
                      <tbody>
                        {changes.map((c) => (
                          <tr key={c.field}>
                            <th scope="row">{c.field}</th>
                            <td><del>{c.before || "–"}</del></td>
                            <td><ins>{c.after || "–"}</ins></td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              )}
              {changes.length > 0 && (
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

/** ImagePick sets an image by its storage key, chosen from the media
 * library (an upload lands there, e.g. as an article's figure). */
function ImagePick({ id, label, value, error, onChange }: { id: string; label: string; value: string; error?: string; onChange: (v: string) => void }) {
  const media = useMedia();
  const known = (media.data ?? []).some((a) => a.path === value);
  return (
    <div className="pick">
      <Field id={id} label={label} error={error}>
        <select value={value} onChange={(e) => onChange(e.target.value)}>
          <option value="">No image</option>
          {value && !known && <option value={value}>{value}</option>}
          {(media.data ?? []).map((a) => (
            <option key={a.id} value={a.path}>
              {a.caption || a.title || a.path}
            </option>
          ))}
        </select>
      </Field>
      {value && <img src={`/uploads/${value}`} alt={`${label}: ${(media.data ?? []).find((a) => a.path === value)?.alt_text || value}`} />}
    </div>
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
