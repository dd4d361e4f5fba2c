import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, must } from "./api/client";
import { Failed, Status, when } from "./ui";

const tasks = ["teach", "extraction", "article", "flashcard", "keyword", "tool", "tts", "stt"] as const;
type Task = (typeof tasks)[number];

/** Models is the AI model registry: keys show masked, never in full. */
export function Models() {
  const qc = useQueryClient();
  const res = useQuery({ queryKey: ["models"], queryFn: async () => must(await api.GET("/api/v1/admin/models")) });
  const changed = () => qc.invalidateQueries({ queryKey: ["models"] });
  const [form, setForm] = useState({ name: "", model_id: "", task: "teach" as Task, api_key: "", is_default: false, voices: "" });
  const [tested, setTested] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: async () => {
      const voices = form.voices.split(",").map((v) => v.trim()).filter(Boolean);
      return must(
        await api.POST("/api/v1/admin/models", {
          body: { name: form.name, model_id: form.model_id, task: form.task, api_key: form.api_key || undefined, is_default: form.is_default, voices: voices.length ? voices : undefined },
        }),
      );
    },
    onSuccess: () => (setForm({ ...form, name: "", model_id: "", api_key: "", voices: "" }), changed()),
  });
  const update = useMutation({
    mutationFn: async ({ id, body }: { id: number; body: { is_active?: boolean; is_default?: boolean } }) =>
      must(await api.PUT("/api/v1/admin/models/{model_id}", { params: { path: { model_id: id } }, body })),
    onSuccess: changed,
  });
  const remove = useMutation({
    mutationFn: async (id: number) => {
      const r = await api.DELETE("/api/v1/admin/models/{model_id}", { params: { path: { model_id: id } } });
      if (!r.response.ok) must(r);
    },
    onSuccess: changed,
  });
  const test = useMutation({
    mutationFn: async (id: number) => must(await api.POST("/api/v1/admin/models/{model_id}/test", { params: { path: { model_id: id } } })),
    onMutate: () => setTested(null),
    onSuccess: (r) => setTested(r.message),
  });
  const busy = update.isPending || remove.isPending;
  return (
    <section>
      <h1>AI models</h1>
      <Status q={res} />
      {res.data && res.data.length === 0 && <p>No model registered: the AI features answer "not configured".</p>}
      {!!res.data?.length && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Models"><table>
          <thead>
            <tr><th>Name</th><th>Model</th><th>Task</th><th>Key</th><th>State</th><th><span className="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {res.data.map((m) => (
              <tr key={m.id}>
                <td>{m.name || m.model_id}</td>
                <td><code>{m.model_id}</code>{m.voice && ` · ${m.voice}`}</td>
                <td>{m.task}</td>
                <td><code>{m.api_key ?? "proxy key"}</code></td>
                <td>
                  {m.is_active ? "active" : "inactive"}
                  {m.is_default && <span className="badge ok">default</span>}
                </td>
                <td className="actions">
                  <button disabled={test.isPending} onClick={() => test.mutate(m.id)} aria-label={`Test ${m.model_id}`}>Test</button>
                  {!m.is_default && <button disabled={busy} onClick={() => update.mutate({ id: m.id, body: { is_default: true } })} aria-label={`Make ${m.model_id} the default`}>Make default</button>}
                  <button disabled={busy} onClick={() => update.mutate({ id: m.id, body: { is_active: !m.is_active } })}>{m.is_active ? "Deactivate" : "Activate"}</button>
                  <button disabled={busy} onClick={() => remove.mutate(m.id)} aria-label={`Remove ${m.model_id}`}>Remove</button>
                </td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
      <p aria-live="polite" data-testid="model-test">{tested && `The model answered: ${tested}`}</p>
      <Failed m={test} />
      <Failed m={update} />
      <Failed m={remove} />
      <h2>Add a model</h2>
      <form className="row" onSubmit={(e) => (e.preventDefault(), add.mutate())}>
        <label className="field">
          Name <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </label>
        <label className="field">
          Model id <input required value={form.model_id} onChange={(e) => setForm({ ...form, model_id: e.target.value })} />
        </label>
        {/* A label around a select would take the options' text into its name. */}
        <div className="field">
          <label htmlFor="model-task">Task</label>
          <select id="model-task" value={form.task} onChange={(e) => setForm({ ...form, task: e.target.value as Task })}>
            {tasks.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </div>
        <label className="field">
          API key <input type="password" autoComplete="off" value={form.api_key} onChange={(e) => setForm({ ...form, api_key: e.target.value })} />
        </label>
        {form.task === "tts" && (
          <label className="field">
            Voices (comma-separated) <input value={form.voices} onChange={(e) => setForm({ ...form, voices: e.target.value })} />
          </label>
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

type Value = string | number | boolean | null | object;

/** Settings edits the site settings one key at a time; a value that is not
 * text, a number or a switch is edited as JSON. */
export function Settings() {
  const qc = useQueryClient();
  const res = useQuery({ queryKey: ["settings"], queryFn: async () => must(await api.GET("/api/v1/admin/settings")) as Record<string, Value> });
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: async ({ key, value }: { key: string; value: Value }) => must(await api.PUT("/api/v1/admin/settings", { body: { [key]: value } })),
    onMutate: () => setSaved(null),
    onSuccess: (all, { key }) => {
      qc.setQueryData(["settings"], all);
      setEdits(({ [key]: _, ...rest }) => rest);
      setSaved(`Saved ${key}.`);
    },
  });
  const text = (v: Value) => (typeof v === "string" ? v : JSON.stringify(v));
  // A number or JSON that does not parse throws: nothing is sent.
  const parse = (old: Value, s: string): Value => {
    if (typeof old === "string") return s;
    const v = typeof old === "number" ? Number(s) : JSON.parse(s);
    if (typeof old === "number" && (s.trim() === "" || !Number.isFinite(v))) throw new Error("not a number");
    return v;
  };
  return (
    <section>
      <h1>Settings</h1>
      <Status q={res} />
      <p aria-live="polite">{saved}</p>
      <Failed m={save} />
      {res.data && (
        <div className="scroll" tabIndex={0} role="region" aria-label="Settings"><table className="settings">
          <thead><tr><th>Setting</th><th>Value</th><th><span className="sr-only">Save</span></th></tr></thead>
          <tbody>
            {Object.entries(res.data).sort(([a], [b]) => a.localeCompare(b)).map(([key, v]) => {
              const fixed = key === "embedding_model";
              const id = `set-${key}`;
              return (
                <tr key={key}>
                  <td><label htmlFor={id}><code>{key}</code></label></td>
                  <td>
                    {typeof v === "boolean" ? (
                      <input id={id} type="checkbox" checked={v} disabled={save.isPending} onChange={(e) => save.mutate({ key, value: e.target.checked })} />
                    ) : (
                      <input id={id} className="wide" readOnly={fixed} value={edits[key] ?? text(v)} onChange={(e) => setEdits({ ...edits, [key]: e.target.value })} />
                    )}
                  </td>
                  <td>
                    {typeof v !== "boolean" && !fixed && (
                      <button
                        disabled={save.isPending || edits[key] === undefined}
                        onClick={() => {
                          try {
                            save.mutate({ key, value: parse(v, edits[key]) });
                          } catch {
                            setSaved(`${key}: not a valid ${typeof v === "number" ? "number" : "JSON value"}.`);
                          }
                        }}
                        aria-label={`Save ${key}`}
                      >
                        Save
                      </button>
                    )}
                    {fixed && <span className="muted">fixed by the deployment</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table></div>
      )}
    </section>
  );
}

const roles = ["user", "moderator", "admin"] as const;

/** People lists every account with its role (changeable unless the identity
 * provider's groups decide roles: the server then answers 409 with why). */
export function People() {
  const qc = useQueryClient();
  const me = useQuery({ queryKey: ["me"], queryFn: async () => must(await api.GET("/api/v1/auth/me")) });
  const res = useQuery({ queryKey: ["people"], queryFn: async () => must(await api.GET("/api/v1/admin/users", { params: { query: { limit: 200 } } })) });
  const setRole = useMutation({
    mutationFn: async ({ id, role }: { id: number; role: (typeof roles)[number] }) =>
      must(await api.PUT("/api/v1/admin/users/{user_id}/role", { params: { path: { user_id: id } }, body: { role } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ["people"] }),
  });
  return (
    <section>
      <h1>People</h1>
      <Status q={res} />
      <Failed m={setRole} />
      {res.data && (
        <div className="scroll" tabIndex={0} role="region" aria-label="People"><table>
          <thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Since</th></tr></thead>
          <tbody>
            {res.data.map((u) => (
              <tr key={u.id}>
                <td>{u.name}</td>
                <td>{u.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${u.name || u.email}`}
                    value={u.role}
                    disabled={setRole.isPending || u.id === me.data?.id}
                    onChange={(e) => setRole.mutate({ id: u.id, role: e.target.value as (typeof roles)[number] })}
                  >
                    {roles.map((r) => (
                      <option key={r}>{r}</option>
                    ))}
                  </select>
                </td>
                <td>{when(u.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table></div>
      )}
    </section>
  );
}
