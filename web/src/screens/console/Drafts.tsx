// PDFs and drafts: upload a PDF (with its progress), the documents with
// their pages and state, and the batches of drafts extracted from them.
import { useState } from "react";
import { useBatches, useDocuments, useUpload } from "../../api/drafts";
import { Link } from "../../router";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status, when } from "../../ui/ui";

const size = (n: number) => (n < 1048576 ? `${Math.ceil(n / 1024)} kB` : `${(n / 1048576).toFixed(1)} MB`);

export function Drafts() {
  return (
    <section>
      <h1>PDFs and drafts</h1>
      <p className="muted">
        Upload a question paper, name the sections to read, extract them into drafts, fix what is not ready and accept the drafts into the bank.
      </p>
      <Upload />
      <Documents />
      <Batches />
    </section>
  );
}

function Upload() {
  const [file, setFile] = useState<File | null>(null);
  const [sent, setSent] = useState<{ sent: number; total: number } | null>(null);
  const up = useUpload((s, t) => setSent({ sent: s, total: t }));
  return (
    <section className="panel" aria-labelledby="upload-h">
      <h2 id="upload-h">Upload a PDF</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), file && (setSent(null), up.mutate(file)))}>
        <Field id="pdf-file" label="PDF file" hint="A question paper with a text layer (not a scan), up to the site's upload limit.">
          <input type="file" required accept="application/pdf,.pdf" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        </Field>
        <button type="submit" className="primary" disabled={!file || up.isPending}>
          Upload
        </button>
      </form>
      {sent && (up.isPending || up.isSuccess) && (
        <p className="progress-line">
          <label htmlFor="upload-progress">{up.isPending ? "Uploading" : "Uploaded"}</label>{" "}
          <progress id="upload-progress" max={sent.total || 1} value={sent.sent} />{" "}
          <span aria-live="polite" data-testid="upload-progress">
            {size(sent.sent)} of {size(sent.total)}
          </span>
        </p>
      )}
      {up.data && (
        <p role="status">
          Stored as {up.data.status === "processing" ? "processing" : up.data.status}: <Link href={`/documents/${up.data.id}`}>open {up.data.original_filename}</Link> to name its sections.
        </p>
      )}
      <Failed m={up} />
    </section>
  );
}

function Documents() {
  const docs = useDocuments();
  return (
    <section aria-labelledby="docs-h">
      <h2 id="docs-h">Documents</h2>
      <Status q={docs} what="the documents" />
      {docs.data?.length === 0 && <p>No PDF uploaded yet.</p>}
      {!!docs.data?.length && (
        <ActionTable
          label="Documents"
          rows={docs.data}
          rowKey={(d) => d.id}
          columns={[
            { header: "Document", cell: (d) => <Link href={`/documents/${d.id}`}>{d.original_filename}</Link> },
            { header: "Pages", num: true, cell: (d) => (d.total_pages || "–") },
            { header: "State", cell: (d) => <span className={`badge ${d.status === "ready" ? "ok" : d.status === "failed" ? "bad" : ""}`}>{d.status}</span> },
            { header: "Size", num: true, cell: (d) => size(d.size_bytes) },
            { header: "Uploaded", cell: (d) => when(d.uploaded_at) },
          ]}
        />
      )}
    </section>
  );
}

function Batches() {
  const [status, setStatus] = useState<"open" | "closed">("open");
  const res = useBatches(status);
  return (
    <section aria-labelledby="batches-h">
      <h2 id="batches-h">Batches of drafts</h2>
      <Field id="batch-status" label="Batches">
        <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
          <option value="open">Open</option>
          <option value="closed">Closed</option>
        </select>
      </Field>
      <Status q={res} what="the batches" />
      {res.data && res.data.length === 0 && <p>No {status} batch.</p>}
      {!!res.data?.length && (
        <ActionTable
          label="Draft batches"
          rows={res.data}
          rowKey={(b) => b.id}
          columns={[
            { header: "Batch", cell: (b) => <Link href={`/drafts/${b.id}`}>Batch {b.id}</Link> },
            { header: "Source", cell: (b) => b.source },
            { header: "Pages", cell: (b) => `${b.start_page}–${b.end_page}` },
            { header: "Extractor", cell: (b) => b.extractor },
            { header: "Pending", num: true, cell: (b) => b.counts.pending },
            { header: "Accepted", num: true, cell: (b) => b.counts.accepted },
            { header: "Rejected", num: true, cell: (b) => b.counts.rejected },
            { header: "Created", cell: (b) => when(b.created_at) },
          ]}
        />
      )}
    </section>
  );
}
