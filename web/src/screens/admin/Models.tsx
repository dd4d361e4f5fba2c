// The AI model registry: keys show masked, never in full; add, test, make
// default, (de)activate and remove.
import { useState } from "react";
import { useAddModel, useModels, useRemoveModel, useTestModel, useUpdateModel } from "../../api/admin";
import { ActionTable } from "../../ui/ActionTable";
import { Failed, Field, Status } from "../../ui/ui";

const tasks = ["teach", "extraction", "article", "flashcard", "keyword", "tool", "tts", "stt"] as const;
type Task = (typeof tasks)[number];

/** Models is the AI model registry: keys show masked, never in full. */
export function Models() {
  const res = useModels();
  const [form, setForm] = useState({ name: "", model_id: "", task: "teach" as Task, api_key: "", is_default: false, voices: "" });
  const [tested, setTested] = useState<string | null>(null);
  const add = useAddModel(() => setForm({ ...form, name: "", model_id: "", api_key: "", voices: "" }));
  const update = useUpdateModel();
  const remove = useRemoveModel();
  const test = useTestModel(setTested);
  const submit = () => {
    const voices = form.voices.split(",").map((v) => v.trim()).filter(Boolean);
    add.mutate({ name: form.name, model_id: form.model_id, task: form.task, api_key: form.api_key || undefined, is_default: form.is_default, voices: voices.length ? voices : undefined });
  };
  const busy = update.isPending || remove.isPending;
  return (
    <section>
      <h1>AI models</h1>
      <Status q={res} />
      {res.data && res.data.length === 0 && <p>No model registered: the AI features answer "not configured".</p>}
      {!!res.data?.length && (
        <ActionTable
          label="Models"
          rows={res.data}
          rowKey={(m) => m.id}
          columns={[
            { header: "Name", cell: (m) => m.name || m.model_id },
            { header: "Model", cell: (m) => <><code>{m.model_id}</code>{m.voice && ` · ${m.voice}`}</> },
            { header: "Task", cell: (m) => m.task },
            { header: "Key", cell: (m) => <code>{m.api_key ?? "proxy key"}</code> },
            { header: "State", cell: (m) => <>{m.is_active ? "active" : "inactive"}{m.is_default && <span className="badge ok">default</span>}</> },
          ]}
          actions={(m) => (
            <>
              <button disabled={test.isPending} onClick={() => (setTested(null), test.mutate(m.id))} aria-label={`Test ${m.model_id}`}>Test</button>
              {!m.is_default && <button disabled={busy} onClick={() => update.mutate({ id: m.id, body: { is_default: true } })} aria-label={`Make ${m.model_id} the default`}>Make default</button>}
              <button disabled={busy} onClick={() => update.mutate({ id: m.id, body: { is_active: !m.is_active } })} aria-label={`${m.is_active ? "Deactivate" : "Activate"} ${m.model_id}`}>{m.is_active ? "Deactivate" : "Activate"}</button>
              <button disabled={busy} onClick={() => remove.mutate(m.id)} aria-label={`Remove ${m.model_id}`}>Remove</button>
            </>
          )}
        />
      )}
      <p aria-live="polite" data-testid="model-test">{tested && `The model answered: ${tested}`}</p>
      <Failed m={test} />
      <Failed m={update} />
      <Failed m={remove} />
      <h2>Add a model</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), submit())}>
        <Field id="model-name" label="Name">
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field id="model-id" label="Model id">
          <input required value={form.model_id} onChange={(e) => setForm({ ...form, model_id: e.target.value })} />
        </Field>
        <Field id="model-task" label="Task">
          <select value={form.task} onChange={(e) => setForm({ ...form, task: e.target.value as Task })}>
            {tasks.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        <Field id="model-key" label="API key">
          <input type="password" autoComplete="off" value={form.api_key} onChange={(e) => setForm({ ...form, api_key: e.target.value })} />
        </Field>
        {form.task === "tts" && (
          <Field id="model-voices" label="Voices (comma-separated)">
            <input value={form.voices} onChange={(e) => setForm({ ...form, voices: e.target.value })} />
          </Field>
        )}
        <label className="check">
          <input type="checkbox" checked={form.is_default} onChange={(e) => setForm({ ...form, is_default: e.target.checked })} /> Default for its task
        </label>
        <button type="submit" className="primary" disabled={add.isPending}>
          Add model
        </button>
      </form>
      <Failed m={add} />
    </section>
  );
}

