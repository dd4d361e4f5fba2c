// The question editor: every field of a bank question, the server's
// problems by their fields, the version history compared field by field
// with a restore each; and the same form for a new question.
import { useState, type ReactNode } from "react";
import { useMedia } from "../../api/library";
import { useCreateQuestion, useQuestion, useRestoreVersion, useSaveQuestion, useVersions, type Question, type QuestionFields } from "../../api/questions";
import { Link, navigate } from "../../router";
import { diff, fieldErrors, lines } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Failed, Field, Status, Submit, when } from "../../ui/ui";

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

const blank: QForm = {
  question_text: "",
  question_type: "mcq",
  options: "",
  correct_answer: "",
  option_explanations: "",
  explanation: "",
  key_points: "",
  attending_tip: "",
  image_path: "",
  explanation_image_path: "",
  category: "",
};

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

/** fieldsOf is the form as the bank's write takes it. */
const fieldsOf = (f: QForm): QuestionFields & { question_text: string; question_type: string; correct_answer: string } => {
  const mcq = f.question_type === "mcq";
  return {
    question_text: f.question_text,
    question_type: f.question_type,
    options: mcq ? lines(f.options) : [],
    correct_answer: f.correct_answer,
    option_explanations: mcq ? lines(f.option_explanations) : [],
    explanation: f.explanation,
    key_points: lines(f.key_points),
    attending_tip: f.attending_tip,
    image_path: f.image_path || null,
    explanation_image_path: f.explanation_image_path || null,
  };
};

/** QuestionForm is the editor's form: the server's problems show by their
 * fields (it checks; the form does not guess). */
function QuestionForm({ f, onEdit, error, children, onSubmit }: { f: QForm; onEdit: (p: Partial<QForm>) => void; error: unknown; children: ReactNode; onSubmit: () => void }) {
  const errs = fieldErrors(error);
  const opts = lines(f.options);
  const text = (k: keyof QForm, label: string, rows = 3, hint?: string) => (
    <Field id={`q-${k}`} label={hint ? <>{label} <span className="muted">({hint})</span></> : label} error={errs[k]}>
      <textarea rows={rows} value={f[k]} onChange={(e) => onEdit({ [k]: e.target.value })} />
    </Field>
  );
  return (
    <form className="stack" onSubmit={(e) => (e.preventDefault(), onSubmit())}>
      <Field id="q-question_text" label="Stem" error={errs.question_text}>
        <textarea required rows={4} value={f.question_text} onChange={(e) => onEdit({ question_text: e.target.value })} />
      </Field>
      <Field id="q-type" label="Type" error={errs.question_type}>
        <select value={f.question_type} onChange={(e) => onEdit({ question_type: e.target.value as QForm["question_type"] })}>
          <option value="mcq">Multiple choice</option>
          <option value="fill_in">Fill in</option>
        </select>
      </Field>
      {f.question_type === "mcq" && text("options", "Options", 5, "one a line")}
      {f.question_type === "mcq" ? (
        <Field id="q-answer" label="Answer" error={errs.correct_answer}>
          <select value={f.correct_answer} onChange={(e) => onEdit({ correct_answer: e.target.value })}>
            <option value="">Choose…</option>
            {f.correct_answer && !opts.includes(f.correct_answer) && <option>{f.correct_answer}</option>}
            {opts.map((o, i) => (
              <option key={i}>{o}</option>
            ))}
          </select>
        </Field>
      ) : (
        <Field id="q-answer" label="Accepted answers (separated by |)" error={errs.correct_answer}>
          <input value={f.correct_answer} onChange={(e) => onEdit({ correct_answer: e.target.value })} />
        </Field>
      )}
      {f.question_type === "mcq" && text("option_explanations", "Why each option", 5, "one a line, in option order, or none")}
      {text("explanation", "Explanation", 4)}
      {text("key_points", "Key points", 3, "one a line")}
      {text("attending_tip", "Attending's tip", 2)}
      <ImagePick id="q-image" label="Question image" value={f.image_path} error={errs.image_path} onChange={(image_path) => onEdit({ image_path })} />
      <ImagePick id="q-explanation-image" label="Image with the explanation" value={f.explanation_image_path} error={errs.explanation_image_path} onChange={(explanation_image_path) => onEdit({ explanation_image_path })} />
      <Field id="q-category" label="Category" error={errs.category_id ?? errs.question_category_id}>
        <CategoryPicker value={f.category} onChange={(category) => onEdit({ category })} none="Uncategorised" />
      </Field>
      {children}
    </form>
  );
}

/** NewQuestion writes a question into the bank, then opens its editor. */
export function NewQuestion() {
  const [f, setF] = useState<QForm>(blank);
  const create = useCreateQuestion((q) => navigate(`/questions/${q.id}/edit`, true));
  return (
    <section>
      <p className="muted">
        <Link href="/bank">Question bank</Link> ›
      </p>
      <h1>New question</h1>
      <QuestionForm
        f={f}
        onEdit={(p) => setF({ ...f, ...p })}
        error={create.error}
        onSubmit={() => create.mutate({ ...fieldsOf(f), question_category_id: f.category ? Number(f.category) : null })}
      >
        <Submit m={create} label="Add to the bank" />
      </QuestionForm>
    </section>
  );
}

/** QuestionEditor edits every field of a bank question the bank accepts;
 * each save snapshots the prior state as a version. The category is filing,
 * not content: it is saved on its own route, and only when it changed. */
export function QuestionEditor({ id }: { id: number }) {
  const res = useQuestion(id);
  const versions = useVersions(id);
  const [draft, setDraft] = useState<QForm | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const q = res.data;
  const f: QForm | null = draft ?? (q ? formOf(q) : null);
  const save = useSaveQuestion(id, (next) => (setDraft(null), setResult(next ? `Saved as version ${next.version}.` : "Category saved.")));
  const restore = useRestoreVersion(id, () => (setDraft(null), setResult("Version restored.")));
  if (!q || !f) return <Status q={res} what="the question" />;
  const was = formOf(q);
  const submit = () => {
    setResult(null);
    // Only the category changed: no content save, so no new version.
    const same = (Object.keys(was) as (keyof QForm)[]).every((k) => k === "category" || was[k] === f[k]);
    save.mutate({
      fields: same ? null : fieldsOf(f),
      category: f.category === was.category ? undefined : f.category ? Number(f.category) : null,
    });
  };
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
      <p role="status" data-testid="editor-result">
        {result}
      </p>
      <Failed m={restore} />
      {!q.can_edit && <p role="alert">You may read this question but not edit it.</p>}
      <QuestionForm f={f} onEdit={(p) => setDraft({ ...f, ...p })} error={save.error} onSubmit={submit}>
        <Submit m={save} label="Save" disabled={!q.can_edit || draft === null} other={draft !== null ? { label: "Discard changes", onClick: () => (setDraft(null), save.reset()) } : undefined} />
      </QuestionForm>
      <h2>Version history</h2>
      <Status q={versions} what="the versions" />
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
                        <tr>
                          <th scope="col">Field</th>
                          <th scope="col">This version</th>
                          <th scope="col">Now</th>
                        </tr>
                      </thead>
                      <tbody>
                        {changes.map((c) => (
                          <tr key={c.field}>
                            <th scope="row">{c.field}</th>
                            <td>
                              <del>{c.before || "–"}</del>
                            </td>
                            <td>
                              <ins>{c.after || "–"}</ins>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                </details>
              )}
              {changes.length > 0 && (
                <button disabled={!q.can_edit || restore.isPending} onClick={() => (setResult(null), restore.mutate(v.id))} aria-label={`Restore the version of ${when(v.created_at)}`}>
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
