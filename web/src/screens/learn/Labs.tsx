// Lab values: the reference table (a page, and a panel while sitting) and
// the moderators' editor of every value, drafts included.
import { useState } from "react";
import { useDeleteLab, useLabs, useSaveLab, type LabValue } from "../../api/labs";
import { fieldErrors } from "../../lib/edit";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status } from "../../ui/ui";

/** LabTable is the reference table with its tabs and a filter; the browser
 * page and the side panel of a sitting show the same one. */
export function LabTable({ compact = false }: { compact?: boolean }) {
  const res = useLabs();
  const [tab, setTab] = useState<string | null>(null);
  const [q, setQ] = useState("");
  if (!res.data) return <Status q={res} />;
  const needle = q.trim().toLowerCase();
  // A filter searches every tab; otherwise one tab shows (the first by default).
  const group = tab ?? res.data.tabs?.[0]?.group;
  const rows = (res.data.values ?? []).filter((v) => (needle ? `${v.name} ${v.specimen} ${v.group}`.toLowerCase().includes(needle) : v.group === group));
  const id = compact ? "lab-filter-panel" : "lab-filter";
  return (
    <div className="labs">
      <div className="field">
        <label htmlFor={id}>Find a test</label>
        <input id={id} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {!needle && (
        <p className="actions tabs" role="group" aria-label="Groups">
          {(res.data.tabs ?? []).map((t) => (
            <button key={t.group} aria-pressed={t.group === group} onClick={() => setTab(t.group ?? "")}>
              {t.group} <span className="muted">({t.count})</span>
            </button>
          ))}
        </p>
      )}
      {rows.length === 0 ? (
        <p>No test matches.</p>
      ) : (
        <div className="scroll" tabIndex={0} role="region" aria-label="Reference values">
          <table className="lab-table">
            <thead>
              <tr>
                <th>Test</th>
                <th>Reference (SI)</th>
                {!compact && <th>Conventional</th>}
                {!compact && <th>Specimen</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.id}>
                  <th scope="row">
                    {v.name}
                    {v.age_group && !/^adult$/i.test(v.age_group) && <span className="muted"> ({v.age_group})</span>}
                  </th>
                  <td>
                    {v.reference_range} {v.units}
                  </td>
                  {!compact && <td>{v.conventional_range ? `${v.conventional_range} ${v.conventional_units ?? ""}` : "–"}</td>}
                  {!compact && <td>{v.specimen}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {res.data.truncated && <p className="muted">Showing 500 of {res.data.total}.</p>}
    </div>
  );
}

export function Labs({ moderator = false }: { moderator?: boolean }) {
  return (
    <section>
      <h1>Lab values</h1>
      <p className="muted">Reference ranges, also at hand in the side panel while you sit a quiz.</p>
      <LabTable />
      {moderator && <LabEditor />}
    </section>
  );
}

type Record_ = { [K in "name" | "group" | "specimen" | "age_group" | "reference_range" | "units" | "conventional_range" | "conventional_units" | "source" | "source_url" | "article_id" | "article_section_id"]: string } & { is_published: boolean };

const blank: Record_ = {
  name: "", group: "", specimen: "", age_group: "Adult", reference_range: "", units: "", conventional_range: "", conventional_units: "",
  source: "", source_url: "", article_id: "", article_section_id: "", is_published: false,
};

const recordOf = (v: LabValue): Record_ => ({
  ...blank,
  ...Object.fromEntries(Object.entries(v).filter(([k, x]) => k in blank && x != null).map(([k, x]) => [k, typeof x === "number" ? String(x) : x])),
});

// The record's text fields in form order: [key, label, required].
const textFields: [keyof Record_, string, boolean][] = [
  ["name", "Test", true],
  ["group", "Group (its tab)", true],
  ["specimen", "Specimen", true],
  ["age_group", "Age group", true],
  ["reference_range", "Reference range (SI)", true],
  ["units", "SI units", true],
  ["conventional_range", "Conventional range", false],
  ["conventional_units", "Conventional units", false],
  ["source", "Source (citation)", true],
  ["source_url", "Source URL", false],
  ["article_id", "Library article id", false],
  ["article_section_id", "Article section id", false],
];

/** LabEditor is the moderators' side: every value, drafts included, to
 * add, edit (the record is replaced whole), publish and delete. */
function LabEditor() {
  const all = useLabs(true);
  const [editing, setEditing] = useState<number | null>(null);
  const [form, setForm] = useState<Record_>(blank);
  const [note, setNote] = useState<string | null>(null);
  const [q, setQ] = useState("");
  const done = (msg: string) => {
    setEditing(null);
    setForm(blank);
    setNote(msg);
  };
  const save = useSaveLab((v) => done(`${editing ? "Saved" : "Added"} ${v.name}.`));
  const remove = useDeleteLab((v) => done(`Deleted ${v.name}.`));
  const body = () => ({
    ...form,
    conventional_range: form.conventional_range || null,
    conventional_units: form.conventional_units || null,
    source_url: form.source_url || null,
    article_id: form.article_id ? Number(form.article_id) : null,
    article_section_id: form.article_section_id || null,
  });
  const errs = fieldErrors(save.error);
  const open = (v: LabValue) => {
    setEditing(v.id);
    setForm(recordOf(v));
    save.reset();
    setNote(null);
    // The form is above the table: take the keyboard there.
    setTimeout(() => document.getElementById("lab-name")?.focus());
  };
  return (
    <section aria-labelledby="lab-edit-h">
      <h2 id="lab-edit-h">Edit reference values</h2>
      <p role="status">{note}</p>
      <Failed m={remove} />
      <h3 id="lab-form-h">{editing ? `Edit ${form.name || "value"}` : "Add a reference value"}</h3>
      <form aria-labelledby="lab-form-h" onSubmit={(e) => (e.preventDefault(), setNote(null), save.mutate({ id: editing, body: body() }))}>
        <div className="row">
          {textFields.map(([k, label, required]) => (
            <Field key={k} id={`lab-${k}`} label={label} error={errs[k]}>
              <input
                required={required}
                type={k === "article_id" ? "number" : k === "source_url" ? "url" : "text"}
                value={form[k] as string}
                onChange={(e) => setForm({ ...form, [k]: e.target.value })}
              />
            </Field>
          ))}
          <label className="check">
            <input type="checkbox" checked={form.is_published} onChange={(e) => setForm({ ...form, is_published: e.target.checked })} /> Published to learners
          </label>
        </div>
        <p className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {editing ? "Save value" : "Add value"}
          </button>
          {editing && (
            <button type="button" onClick={() => (setEditing(null), setForm(blank), save.reset())}>
              Cancel
            </button>
          )}
        </p>
      </form>
      <Failed m={save} />
      <h3>Every value, drafts included</h3>
      <Status q={all} />
      <div className="field">
        <label htmlFor="lab-edit-filter">Find a value to edit</label>
        <input id="lab-edit-filter" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {all.data && (
        <ActionTable
          label="Every reference value"
          tall
          rows={(all.data.values ?? []).filter((v) => `${v.name} ${v.group}`.toLowerCase().includes(q.trim().toLowerCase()))}
          rowKey={(v) => v.id}
          columns={[
            { header: "Test", cell: (v) => <>{v.name} <span className="muted">({v.age_group})</span></> },
            { header: "Group", cell: (v) => v.group },
            { header: "Reference (SI)", cell: (v) => `${v.reference_range} ${v.units}` },
            { header: "State", cell: (v) => (v.is_published ? "published" : "draft") },
          ]}
          actions={(v) => (
            <>
              <button onClick={() => open(v)} aria-label={`Edit ${v.name} (${v.age_group})`}>
                Edit
              </button>
              <button disabled={remove.isPending} onClick={() => confirm(`Delete ${v.name} for good?`) && (setNote(null), remove.mutate(v))} aria-label={`Delete ${v.name} (${v.age_group})`}>
                Delete
              </button>
            </>
          )}
        />
      )}
    </section>
  );
}
