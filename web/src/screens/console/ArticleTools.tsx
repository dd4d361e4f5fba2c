// The article editor's tools beside the text: figures (uploaded or taken
// from the media library, captioned, removed) and the AI actions (draft
// from a topic, refine, cards), each a queued job polled until it settles.
import { useEffect, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { keys } from "../../api/keys";
import { useAiDraft, useAiTool, useArticleJob, useCaption, useFigures, useMedia, usePlaceFigure, useSources, useUnlinkFigure, useUploadFigure, type Figure } from "../../api/library";
import { Link } from "../../router";
import { fieldErrors, progress } from "../../lib/edit";
import { CategoryPicker } from "../../ui/CategoryPicker";
import { Failed, Field } from "../../ui/ui";

type Section = { id?: string; heading: string };

/** Figures lists an article's figures and adds, recaptions and removes
 * them. Placing a figure writes its line into the section's markdown, so
 * the editor's unsaved text must be saved first (locked says so). */
export function Figures({ articleId, sections, locked }: { articleId: number; sections: Section[]; locked: boolean }) {
  const list = useFigures(articleId);
  const media = useMedia();
  const placed = sections.filter((s) => s.id);
  const [form, setForm] = useState({ section: "", caption: "", credit: "", license: "", existing: "" });
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0); // a new key empties the file input
  const [note, setNote] = useState<string | null>(null);
  const section = form.section || placed[0]?.id || "";
  const upload = useUploadFigure(articleId, (f) => {
    setForm({ ...form, caption: "", credit: "", license: "" });
    setFile(null);
    setFileKey(fileKey + 1);
    setNote(`Figure "${f.asset.caption}" added.`);
  });
  const reuse = usePlaceFigure(articleId, (f) => setNote(`Figure "${f.asset.caption}" placed.`));
  const remove = useUnlinkFigure(articleId, () => setNote("Figure removed from the article (the image stays in the media library)."));
  const uploadForm = () => {
    const body = new FormData();
    body.append("file", file!);
    body.append("section_id", section);
    body.append("caption", form.caption);
    if (form.credit) body.append("credit", form.credit);
    if (form.license) body.append("license", form.license);
    return body;
  };
  const errs = fieldErrors(upload.error);
  const busy = locked || upload.isPending || reuse.isPending || remove.isPending;
  const sectionPick = (
    <select value={section} onChange={(e) => setForm({ ...form, section: e.target.value })}>
      {placed.map((s) => (
        <option key={s.id} value={s.id}>
          {s.heading}
        </option>
      ))}
    </select>
  );
  return (
    <section className="panel" aria-labelledby="figures-h">
      <h2 id="figures-h">Figures</h2>
      {locked && <p className="muted">Save or discard your changes to the text before changing figures: a figure is written into its section.</p>}
      {placed.length === 0 && <p className="muted">Save the article once: figures go into a saved section.</p>}
      <p role="status">{note}</p>
      <Failed m={remove} />
      <ul className="figures">
        {(list.data ?? []).map((f) => (
          <FigureItem key={`${f.asset.id}-${f.section_id}`} figure={f} heading={sections.find((s) => s.id === f.section_id)?.heading ?? f.section_id} busy={busy} onRemove={() => (setNote(null), remove.mutate(f.asset.id))} onSaved={() => setNote("Caption saved.")} />
        ))}
      </ul>
      {list.data?.length === 0 && <p>No figure yet.</p>}
      {placed.length > 0 && (
        <>
          <h3>Upload an image</h3>
          <form className="row" onSubmit={(e) => (e.preventDefault(), setNote(null), upload.mutate(uploadForm()))}>
            <Field id="fig-file" label="Image file (PNG, JPEG or WebP)" error={errs.file}>
              <input key={fileKey} type="file" required accept="image/png,image/jpeg,image/webp" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
            </Field>
            <Field id="fig-section" label="Into section" error={errs.section_id}>
              {sectionPick}
            </Field>
            <Field id="fig-caption" label="Caption (also the alt text)" error={errs.caption}>
              <input required maxLength={2000} value={form.caption} onChange={(e) => setForm({ ...form, caption: e.target.value })} />
            </Field>
            <Field id="fig-credit" label="Credit" error={errs.credit}>
              <input maxLength={2000} value={form.credit} onChange={(e) => setForm({ ...form, credit: e.target.value })} />
            </Field>
            <Field id="fig-license" label="Licence" error={errs.license}>
              <input maxLength={2000} value={form.license} onChange={(e) => setForm({ ...form, license: e.target.value })} />
            </Field>
            <button type="submit" className="primary" disabled={busy || !file}>
              Upload figure
            </button>
          </form>
          <Failed m={upload} />
          {!!media.data?.length && (
            <>
              <h3>Or place an image from the media library</h3>
              <form className="row" onSubmit={(e) => (e.preventDefault(), setNote(null), reuse.mutate({ asset_id: Number(form.existing), section_id: section }))}>
                <Field id="fig-existing" label="Image">
                  <select required value={form.existing} onChange={(e) => setForm({ ...form, existing: e.target.value })}>
                    <option value="">Choose…</option>
                    {media.data.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.caption || a.title || a.path}
                      </option>
                    ))}
                  </select>
                </Field>
                <button type="submit" disabled={busy || !form.existing}>
                  Place figure
                </button>
              </form>
              <Failed m={reuse} />
            </>
          )}
        </>
      )}
    </section>
  );
}

/** FigureItem shows one figure with its caption, editable in place. */
function FigureItem({ figure, heading, busy, onRemove, onSaved }: { figure: Figure; heading: string; busy: boolean; onRemove: () => void; onSaved: () => void }) {
  const a = figure.asset;
  const [caption, setCaption] = useState(a.caption);
  const save = useCaption(a, onSaved);
  const id = `fig-cap-${a.id}-${figure.section_id}`;
  return (
    <li>
      <img src={a.url} alt={a.alt_text || a.caption} />
      <p className="muted">In “{heading}”</p>
      <form onSubmit={(e) => (e.preventDefault(), save.mutate(caption))}>
        <Field id={id} label={`Caption of figure ${a.id}`} error={fieldErrors(save.error).caption}>
          <input required value={caption} onChange={(e) => setCaption(e.target.value)} />
        </Field>
        <p className="actions">
          <button type="submit" disabled={busy || save.isPending || caption === a.caption}>
            Save caption
          </button>
          <button type="button" disabled={busy} onClick={onRemove} aria-label={`Remove figure ${a.id} from the article`}>
            Remove
          </button>
        </p>
      </form>
    </li>
  );
}

/** JobView is a job's live progress; children show what a finished job
 * made, and onDone hears once that it finished. */
function JobView({ id, label, onDone, children }: { id: string | null; label: string; onDone?: () => void; children?: (result: Record<string, unknown>) => ReactNode }) {
  const job = useArticleJob(id);
  const j = job.data;
  const completed = j?.status === "completed";
  useEffect(() => {
    if (completed) onDone?.();
    // Once per finish: onDone is a fresh closure each render.
  }, [completed]);
  if (!id) return null;
  if (job.isError) return <p role="alert">{label}: could not read the job: {job.error.message}</p>;
  const line = j ? progress(j) : "Queued…";
  return (
    <div className={`job ${j?.status ?? ""}`} data-testid="ai-job">
      <p role={j?.status === "failed" ? "alert" : "status"}>
        <strong>{label}:</strong> {line}
      </p>
      {j?.status === "completed" && children?.((j.result ?? {}) as Record<string, unknown>)}
    </div>
  );
}

/** Sources offers the grounding sources the server names. */
function Sources({ value, onChange }: { value: string[]; onChange: (v: string[]) => void }) {
  const res = useSources();
  if (!res.data?.length) return null;
  return (
    <fieldset className="row">
      <legend>Ground on</legend>
      {res.data.map((s) => (
        <label key={s} className="check">
          <input type="checkbox" checked={value.includes(s)} onChange={(e) => onChange(e.target.checked ? [...value, s] : value.filter((x) => x !== s))} /> {s}
        </label>
      ))}
    </fieldset>
  );
}

/** AiDraft queues a new article written from a topic, then links to it. */
export function AiDraft() {
  const [form, setForm] = useState({ title: "", category: "", instructions: "", sources: [] as string[] });
  const [job, setJob] = useState<string | null>(null);
  const ask = useAiDraft(setJob);
  const errs = fieldErrors(ask.error);
  return (
    <section className="panel" aria-labelledby="ai-draft-h">
      <h2 id="ai-draft-h">Draft an article with AI</h2>
      <form
        onSubmit={(e) => (
          e.preventDefault(),
          setJob(null),
          ask.mutate({ title: form.title, category_id: form.category ? Number(form.category) : undefined, instructions: form.instructions || undefined, sources: form.sources })
        )}
      >
        <div className="row">
          <Field id="ai-topic" label="Topic" error={errs.title}>
            <input required maxLength={300} value={form.title} onChange={(e) => setForm({ ...form, title: e.target.value })} />
          </Field>
          <Field id="ai-category" label="File under" error={errs.category_id}>
            <CategoryPicker value={form.category} onChange={(category) => setForm({ ...form, category })} none="No category" />
          </Field>
        </div>
        <Instructions id="ai-draft-instr" value={form.instructions} error={errs.instructions} onChange={(instructions) => setForm({ ...form, instructions })} />
        <Sources value={form.sources} onChange={(sources) => setForm({ ...form, sources })} />
        <button type="submit" className="primary" disabled={ask.isPending}>
          Draft with AI
        </button>
      </form>
      <Failed m={ask} />
      <JobView id={job} label="AI draft">
        {(r) => <Link href={`/write/${r.article_id}`}>Open the new draft</Link>}
      </JobView>
    </section>
  );
}

function Instructions({ id, value, error, onChange }: { id: string; value: string; error?: string; onChange: (v: string) => void }) {
  return (
    <Field id={id} label="Instructions for the model (optional)" error={error}>
      <textarea rows={2} maxLength={4000} value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/** AiTools refines the saved article (or one section) or makes flashcards
 * from it; a refinement keeps the article as it was as a revision. */
export function AiTools({ articleId, sections, locked }: { articleId: number; sections: Section[]; locked: boolean }) {
  const qc = useQueryClient();
  const [form, setForm] = useState({ section: "", instructions: "", sources: [] as string[] });
  const [job, setJob] = useState<{ id: string; kind: "refine" | "cards" } | null>(null);
  const queue = useAiTool(articleId, setJob);
  const run = (kind: "refine" | "cards") => {
    setJob(null);
    queue.mutate({ kind, body: { instructions: form.instructions || undefined, sources: form.sources }, section: kind === "refine" ? form.section || undefined : undefined });
  };
  // A finished job wrote the article (a refinement) or a deck (cards).
  const written = () => void [keys.articles.root, keys.decks.root].forEach((k) => qc.invalidateQueries({ queryKey: k }));
  const errs = fieldErrors(queue.error);
  return (
    <section className="panel" aria-labelledby="ai-tools-h">
      <h2 id="ai-tools-h">AI</h2>
      {locked && <p className="muted">Save or discard your changes first: the model works on the saved article.</p>}
      <div className="row">
        <Field id="ai-section" label="Refine" error={errs.section_id}>
          <select value={form.section} onChange={(e) => setForm({ ...form, section: e.target.value })}>
            <option value="">The whole article</option>
            {sections
              .filter((s) => s.id)
              .map((s) => (
                <option key={s.id} value={s.id}>
                  Section “{s.heading}”
                </option>
              ))}
          </select>
        </Field>
      </div>
      <Instructions id="ai-tools-instr" value={form.instructions} error={errs.instructions} onChange={(instructions) => setForm({ ...form, instructions })} />
      <Sources value={form.sources} onChange={(sources) => setForm({ ...form, sources })} />
      <p className="actions">
        <button className="primary" disabled={locked || queue.isPending} onClick={() => run("refine")}>
          Refine with AI
        </button>
        <button disabled={locked || queue.isPending} onClick={() => run("cards")}>
          Make flashcards with AI
        </button>
      </p>
      <Failed m={queue} />
      {job && (
        <JobView key={job.id} id={job.id} label={job.kind === "refine" ? "AI refinement" : "AI flashcards"} onDone={written}>
          {(r) => (job.kind === "refine" ? <p>The text above is the refined one; the text before it is the newest revision.</p> : <Carded result={r} />)}
        </JobView>
      )}
    </section>
  );
}

function Carded({ result }: { result: Record<string, unknown> }) {
  const refused = (result.refused as unknown[] | undefined)?.length ?? 0;
  return (
    <p>
      {String(result.cards)} cards stored{refused ? `, ${refused} refused` : ""}.{" "}
      <Link href={`/flashcards/study?deck=${result.deck_id}`}>Study the deck</Link>
    </p>
  );
}
