// One uploaded PDF: its processing (live), its pages, the sections named
// on it, and extractions started from a section with a reading mode and a
// model, followed live to the batch of drafts they make.
import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useAddSection, useDeleteDocument, useDeleteSection, useDocument, useDocumentSteps, useExtract, useExtraction, useExtractionModels } from "../../api/drafts";
import { keys } from "../../api/keys";
import type { components } from "../../api/schema";
import { Link, navigate } from "../../router";
import { fieldErrors, progress, settled } from "../../lib/edit";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status, when } from "../../ui/ui";

type Section = components["schemas"]["SectionResponse"];

export function Document({ id }: { id: number }) {
  const doc = useDocument(id);
  const steps = useDocumentSteps(id, doc.data?.status === "processing");
  const [note, setNote] = useState<string | null>(null);
  const [extracting, setExtracting] = useState<Section | null>(null);
  const removeSection = useDeleteSection(id);
  const remove = useDeleteDocument(() => navigate("/drafts", true));
  if (!doc.data) return <Status q={doc} what="the document" />;
  const d = doc.data;
  const sections = d.sections ?? [];
  return (
    <section>
      <p className="muted">
        <Link href="/drafts">PDFs and drafts</Link> ›
      </p>
      <h1>{d.original_filename}</h1>
      <dl className="stats">
        <div>
          <dt>State</dt>
          <dd data-testid="doc-state">{d.status}</dd>
        </div>
        <div>
          <dt>Pages</dt>
          <dd data-testid="doc-pages">{d.total_pages || "–"}</dd>
        </div>
        <div>
          <dt>Sections</dt>
          <dd>{sections.length}</dd>
        </div>
      </dl>
      {d.error_message && (
        <p role="alert" className="error">
          {d.error_message}
        </p>
      )}
      <details className="steps" open={d.status === "processing"}>
        <summary>Processing steps</summary>
        <ol aria-live="polite">
          {(steps.data ?? []).map((s, i) => (
            <li key={i}>
              {s.name}
              {s.detail ? `: ${s.detail}` : ""} <span className="muted">{when(s.at)}</span>
            </li>
          ))}
        </ol>
      </details>
      <p role="status">{note}</p>
      <h2>Sections</h2>
      {sections.length === 0 ? (
        <p>No section yet: name the pages to read below.</p>
      ) : (
        <ActionTable
          label="Sections"
          rows={sections}
          rowKey={(s) => s.id}
          columns={[
            { header: "Section", cell: (s) => s.name },
            { header: "Pages", cell: (s) => `${s.start_page}–${s.end_page}` },
          ]}
          actions={(s) => (
            <>
              <button className="primary" aria-pressed={extracting?.id === s.id} onClick={() => setExtracting(s)} aria-label={`Extract questions from ${s.name}`}>
                Extract questions
              </button>
              <button disabled={removeSection.isPending} onClick={() => confirm(`Delete the section ${s.name}? Drafts already extracted stay.`) && removeSection.mutate(s.id)} aria-label={`Delete the section ${s.name}`}>
                Delete
              </button>
            </>
          )}
        />
      )}
      <Failed m={removeSection} />
      {extracting && <Extract key={extracting.id} section={extracting} />}
      {d.status === "ready" && d.total_pages > 0 && <AddSection doc={id} pages={d.total_pages} onAdded={(name) => setNote(`Section ${name} added.`)} />}
      {d.status === "processing" && <p aria-live="polite">Reading the pages… sections can be named once it is ready.</p>}
      <h2>Remove</h2>
      <p className="actions">
        <button className="danger" disabled={remove.isPending} onClick={() => confirm(`Delete ${d.original_filename}? Its drafts stay.`) && remove.mutate(id)}>
          Delete the document
        </button>
      </p>
      <Failed m={remove} />
    </section>
  );
}

function AddSection({ doc, pages, onAdded }: { doc: number; pages: number; onAdded: (name: string) => void }) {
  const [form, setForm] = useState({ name: "", start: "1", end: String(pages) });
  const add = useAddSection(doc, () => (onAdded(form.name), setForm({ name: "", start: "1", end: String(pages) })));
  const errs = fieldErrors(add.error);
  return (
    <section className="panel" aria-labelledby="add-section-h">
      <h3 id="add-section-h">Name a section</h3>
      <form className="row" onSubmit={(e) => (e.preventDefault(), add.mutate({ name: form.name, start_page: Number(form.start), end_page: Number(form.end) }))}>
        <Field id="section-name" label="Name" error={errs.name}>
          <input required maxLength={200} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field id="section-start" label="First page" error={errs.start_page}>
          <input required type="number" min={1} max={pages} value={form.start} onChange={(e) => setForm({ ...form, start: e.target.value })} />
        </Field>
        <Field id="section-end" label={`Last page (of ${pages})`} error={errs.end_page}>
          <input required type="number" min={1} max={pages} value={form.end} onChange={(e) => setForm({ ...form, end: e.target.value })} />
        </Field>
        <button type="submit" disabled={add.isPending}>
          Add section
        </button>
      </form>
      <Failed m={add} />
    </section>
  );
}

/** Extract starts an extraction of one section and follows the job. */
function Extract({ section }: { section: Section }) {
  const qc = useQueryClient();
  const models = useExtractionModels();
  const [form, setForm] = useState({ mode: "text" as "text" | "vision", model: "" });
  const [job, setJob] = useState<string | null>(null);
  const start = useExtract(setJob);
  const j = useExtraction(job).data;
  const done = j && settled(j.status);
  // A finished job made a batch: the drafts lists change.
  const completed = j?.status === "completed";
  useEffect(() => {
    if (completed) void qc.invalidateQueries({ queryKey: keys.drafts.root });
  }, [completed, qc]);
  const errs = fieldErrors(start.error);
  return (
    <section className="panel" aria-labelledby="extract-h">
      <h3 id="extract-h">Extract questions from {section.name}</h3>
      <form className="row" onSubmit={(e) => (e.preventDefault(), setJob(null), start.mutate({ section_id: section.id, reading_mode: form.mode, model: form.model || undefined }))}>
        <Field id="extract-mode" label="Reading mode" error={errs.reading_mode} hint="Text reads the PDF's text layer; vision reads the rendered pages (a vision model only).">
          <select value={form.mode} onChange={(e) => setForm({ ...form, mode: e.target.value as "text" | "vision" })}>
            <option value="text">Text</option>
            <option value="vision">Vision</option>
          </select>
        </Field>
        <Field id="extract-model" label="Model" error={errs.model}>
          <select value={form.model} onChange={(e) => setForm({ ...form, model: e.target.value })}>
            <option value="">The default extraction model</option>
            <option value="builtin">The built-in extractor (text only)</option>
            {(models.data ?? [])
              .filter((m) => m.id != null)
              .map((m) => (
                <option key={m.model_id} value={m.model_id}>
                  {m.name || m.model_id}
                  {m.is_default ? " (default)" : ""}
                </option>
              ))}
          </select>
        </Field>
        <button type="submit" className="primary" disabled={start.isPending || (!!job && !done)}>
          Start extraction
        </button>
      </form>
      <Failed m={start} />
      {job && (
        <div className={`job ${j?.status ?? ""}`} data-testid="extract-job">
          <p role={j?.status === "failed" ? "alert" : "status"}>
            <strong>Extraction:</strong> {j ? progress({ ...j, error: j.error ?? undefined }) : "Queued…"}
          </p>
          {j?.status === "completed" && j.batch_id && (
            <p>
              {j.drafts} drafts. <Link href={`/drafts/${j.batch_id}`}>Review batch {j.batch_id}</Link>
            </p>
          )}
        </div>
      )}
    </section>
  );
}
